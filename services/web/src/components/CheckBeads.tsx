import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { millis, useFormat, type Format } from '../app/format';
import type { RecentCheck } from '../app/recent-checks';

/** What a check reads as, in words: its colour never says it alone. */
export function beadResult(c: RecentCheck): string {
  const result = c.status === 'up' ? 'Up' : 'Down';
  return c.maintenance ? `${result}, in maintenance` : result;
}

/**
 * A check's figure of its type, in words: a ping's packet loss ("0 % loss"), a dns check's answer
 * ("192.0.2.7, 192.0.2.8", "no records"); null for a check of another type.
 */
export function typeFigure(c: Pick<RecentCheck, 'packet_loss' | 'dns_answers'>): string | null {
  if (c.packet_loss !== null) return `${Math.round(c.packet_loss)} % loss`;
  if (c.dns_answers !== null) return c.dns_answers.length === 0 ? 'no records' : c.dns_answers.join(', ');
  return null;
}

/** A bead's accessible name and tooltip: time, result, response time, its type's figure, and what failed. */
export function beadText(c: RecentCheck, fmt: Format): string {
  const parts = [fmt.dateTime(c.checked_at), beadResult(c)];
  if (c.status_code !== null) parts.push(`HTTP ${c.status_code}`);
  parts.push(c.response_time === null ? 'no response time' : millis(c.response_time));
  const figure = typeFigure(c);
  if (figure !== null) parts.push(figure);
  if (c.error) parts.push(c.error);
  return parts.join(' · ');
}

const toneOf = (c: RecentCheck): string => (c.maintenance ? 'maintenance' : c.status);

/**
 * A monitor's latest checks as beads, oldest on the left (docs/web.md, "Beads"): green up, red
 * down, blue in a maintenance window. The strip is one stop of the Tab key; the arrow keys, Home
 * and End move between its beads, each a button named by its time, result and response time,
 * whose tooltip shows the same while it has the focus or the pointer.
 */
export function CheckBeads({ checks, name, slots }: { checks: RecentCheck[]; name: string; slots: number }) {
  const fmt = useFormat();
  const oldestFirst = [...checks].reverse();
  const count = oldestFirst.length;
  // Counted from the newest: a check arriving on the right leaves the strip's stop where it was.
  const [activeFromEnd, setActiveFromEnd] = useState(0);
  const [shown, setShown] = useState<number | null>(null);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const tip = useRef<HTMLDivElement>(null);
  const tipId = useId();
  const current = Math.min(Math.max(count - 1 - activeFromEnd, 0), count - 1);
  const setActive = (i: number) => setActiveFromEnd(count - 1 - i);

  // The tooltip is fixed to the window so no scrolling table clips it; placed above its bead.
  useLayoutEffect(() => {
    const el = tip.current;
    const bead = shown === null ? null : buttons.current[shown];
    if (!el || !bead) return;
    const r = bead.getBoundingClientRect();
    const half = el.offsetWidth / 2;
    el.style.left = `${Math.min(Math.max(r.left + r.width / 2, half + 4), window.innerWidth - half - 4)}px`;
    el.style.top = `${r.top - 6}px`;
    const hide = () => setShown(null);
    window.addEventListener('scroll', hide, { capture: true, once: true });
    return () => window.removeEventListener('scroll', hide, { capture: true });
  }, [shown]);

  if (count === 0) return <span className="muted small">No checks yet</span>;

  const move = (e: KeyboardEvent) => {
    const next = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: count - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    const to = Math.min(Math.max(next, 0), count - 1);
    setActive(to);
    buttons.current[to]?.focus();
  };
  return (
    <div className="beads" role="group" aria-label={`Latest checks of ${name}`} onKeyDown={move}>
      {Array.from({ length: Math.max(0, slots - count) }, (_v, i) => (
        <span key={`empty-${i}`} className="bead empty" aria-hidden="true" />
      ))}
      {oldestFirst.map((c, i) => (
        <button
          key={c.checked_at}
          ref={(el) => {
            buttons.current[i] = el;
          }}
          type="button"
          className={`bead ${toneOf(c)}`}
          tabIndex={i === current ? 0 : -1}
          aria-label={beadText(c, fmt)}
          aria-describedby={shown === i ? tipId : undefined}
          onFocus={() => {
            setActive(i);
            setShown(i);
          }}
          onBlur={() => setShown(null)}
          onMouseEnter={() => setShown(i)}
          onMouseLeave={() => setShown(null)}
        />
      ))}
      {shown !== null && oldestFirst[shown] && (
        <div ref={tip} id={tipId} role="tooltip" className="bead-tip">
          {beadText(oldestFirst[shown], fmt)}
        </div>
      )}
    </div>
  );
}
