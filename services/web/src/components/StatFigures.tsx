import type { ReactNode } from 'react';

/** A row of labelled figures (uptime, averages), one tile each. */
export function StatFigures({ label, figures }: { label: string; figures: [string, ReactNode][] }) {
  return (
    <section className="stat-grid wide" aria-label={label}>
      {figures.map(([name, value]) => (
        <div key={name} className="stat">
          <span className="stat-label">{name}</span>
          <span className="stat-value">{value}</span>
        </div>
      ))}
    </section>
  );
}
