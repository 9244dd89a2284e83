import { useEffect, useRef } from 'react';
import { FieldError } from '../../components/FieldError';
import {
  addSection,
  assignMonitor,
  moveInSection,
  moveItem,
  removeSection,
  renameSection,
  sectionLabel,
  sectionOf,
  type SectionValues,
} from './status-page-form-values';

/** The id of a section's name field, so a new section can take the keyboard. */
const nameFieldId = (key: string): string => `sp-section-${key}-name`;

/**
 * The page's named sections (docs/status-pages.md, "Sections"): add, rename, reorder and remove
 * them, and choose each monitor's section. Every control is a labelled button, field or list
 * box, so all of it works from the keyboard; focus follows what was added or removed.
 */
export function SectionEditor({
  sections,
  monitorIds,
  names,
  onChange,
  errors,
  describedBy,
}: {
  sections: SectionValues[];
  monitorIds: number[];
  names: Map<number, string>;
  onChange: (sections: SectionValues[]) => void;
  errors: string[] | undefined;
  describedBy: string | undefined;
}) {
  const nameOf = (id: number): string => names.get(id) ?? `Monitor ${id}`;
  // The element to focus once the change is on screen: a new section's name, or "Add section"
  // after a removal (the removed section's button is gone with it).
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    if (focusNext.current === null) return;
    document.getElementById(focusNext.current)?.focus();
    focusNext.current = null;
  });
  const add = () => {
    const next = addSection(sections);
    focusNext.current = nameFieldId(next[next.length - 1]!.key);
    onChange(next);
  };
  const remove = (key: string) => {
    focusNext.current = 'sp-add-section';
    onChange(removeSection(sections, key));
  };
  return (
    <fieldset className="field section-editor" aria-describedby={['sp-sections-hint', describedBy].filter(Boolean).join(' ')}>
      <legend>Sections</legend>
      <p className="hint muted small" id="sp-sections-hint">
        Group the page&apos;s monitors under headings, in order. Monitors in no section are shown first.
      </p>
      {sections.map((section, index) => {
        const label = sectionLabel(section, index);
        return (
          <div key={section.key} role="group" aria-label={`Section ${label}`} className="section-box">
            <div className="row-wrap align-end">
              <div className="field">
                <label htmlFor={nameFieldId(section.key)}>Name of section {index + 1}</label>
                <input
                  id={nameFieldId(section.key)}
                  value={section.name}
                  maxLength={100}
                  onChange={(e) => onChange(renameSection(sections, section.key, e.target.value))}
                />
              </div>
              <button
                type="button"
                className="button small ghost"
                aria-label={`Move section ${label} up`}
                disabled={index === 0}
                onClick={() => onChange(moveItem(sections, index, -1))}
              >
                ↑
              </button>
              <button
                type="button"
                className="button small ghost"
                aria-label={`Move section ${label} down`}
                disabled={index === sections.length - 1}
                onClick={() => onChange(moveItem(sections, index, 1))}
              >
                ↓
              </button>
              <button type="button" className="button small ghost" onClick={() => remove(section.key)}>
                Remove section {label}
              </button>
            </div>
            {section.monitorIds.length === 0 ? (
              <p className="muted small">No monitors in this section yet: choose it for a monitor below.</p>
            ) : (
              <ol className="order-list" aria-label={`Monitors in ${label}`}>
                {section.monitorIds.map((id, at) => (
                  <li key={id}>
                    <span>{nameOf(id)}</span>
                    <button
                      type="button"
                      className="button small ghost"
                      aria-label={`Move ${nameOf(id)} up in ${label}`}
                      disabled={at === 0}
                      onClick={() => onChange(moveInSection(sections, section.key, at, -1))}
                    >
                      ↑
                    </button>
                    <button
                      type="button"
                      className="button small ghost"
                      aria-label={`Move ${nameOf(id)} down in ${label}`}
                      disabled={at === section.monitorIds.length - 1}
                      onClick={() => onChange(moveInSection(sections, section.key, at, 1))}
                    >
                      ↓
                    </button>
                  </li>
                ))}
              </ol>
            )}
          </div>
        );
      })}
      <button type="button" id="sp-add-section" className="button small" onClick={add}>
        Add section
      </button>
      {sections.length > 0 && monitorIds.length > 0 && (
        <ul className="plain-list section-choices" aria-label="Section of each monitor">
          {monitorIds.map((id) => (
            <li key={id}>
              <label htmlFor={`sp-section-of-${id}`}>Section of {nameOf(id)}</label>{' '}
              <select
                id={`sp-section-of-${id}`}
                value={sectionOf(sections, id) ?? ''}
                onChange={(e) => onChange(assignMonitor(sections, id, e.target.value === '' ? null : e.target.value))}
              >
                <option value="">No section</option>
                {sections.map((section, index) => (
                  <option key={section.key} value={section.key}>
                    {sectionLabel(section, index)}
                  </option>
                ))}
              </select>
            </li>
          ))}
        </ul>
      )}
      <FieldError id="sp-sections-error" messages={errors} />
    </fieldset>
  );
}
