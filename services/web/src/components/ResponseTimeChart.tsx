import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Schema } from '@uptime/client';
import type { Format } from '../app/format';
import { usePreferences } from '../app/session';

type Series = Schema<'MonitorStats'>['series'];

const HEIGHT = 220;

/** Mean response time per bucket of the stats `series` (uPlot: small and fast). */
export function ResponseTimeChart({ series, fmt, label }: { series: Series; fmt: Format; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  // Redrawn with the theme's colours when it changes.
  const theme = usePreferences().data?.theme;

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const xs = series.map((b) => Date.parse(b.timestamp) / 1000);
    const ys = series.map((b) => b.avg_response_time);
    const colours = { accent: themeColor(el, '--accent'), ink: themeColor(el, '--muted'), grid: themeColor(el, '--border') };
    // Within a day the axis shows clock times, over longer periods dates; both in the user's zone.
    const spanDays = xs.length > 1 ? (xs[xs.length - 1]! - xs[0]!) / 86_400 : 0;
    const tick = spanDays > 2 ? fmt.axisDate : fmt.axisTime;
    const measured = ys.filter((y) => y !== null).length;
    const plot = new uPlot(chartOptions(el.clientWidth || 600, colours, tick, measured < 60), [xs, ys], el);
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [series, fmt, theme]);

  const measured = series.filter((b) => b.avg_response_time !== null);
  return (
    <figure className="chart">
      <div ref={host} role="img" aria-label={`${label}: ${measured.length} of ${series.length} intervals with checks`} />
      {measured.length === 0 && <figcaption className="muted">No checks in this period yet.</figcaption>}
    </figure>
  );
}

/** A colour token as the canvas needs it: resolved for the current scheme to `rgb(...)`. */
function themeColor(el: HTMLElement, token: string): string {
  const probe = document.createElement('span');
  probe.style.color = `var(${token})`;
  el.appendChild(probe);
  const color = getComputedStyle(probe).color;
  probe.remove();
  return color;
}

interface Colours {
  accent: string;
  ink: string;
  grid: string;
}

/** The line in the accent colour, points only while few enough to tell apart; the x axis labelled by `tick`. */
function chartOptions(width: number, colours: Colours, tick: (ms: number) => string, showPoints: boolean): uPlot.Options {
  const { accent, ink, grid } = colours;
  return {
    width,
    height: HEIGHT,
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: true } },
    axes: [
      { ...axisStyle(ink, grid), values: (_u, ticks) => ticks.map((t) => tick(t * 1000)) },
      { ...axisStyle(ink, grid), values: (_u, ticks) => ticks.map((t) => `${t} ms`), size: 60 },
    ],
    series: [
      {},
      {
        label: 'Response time',
        stroke: accent,
        width: 2,
        fill: accent.replace(/^rgb\((.*)\)$/, 'rgba($1, 0.13)'),
        spanGaps: false,
        points: { show: showPoints, size: 5, fill: accent },
      },
    ],
  };
}

function axisStyle(ink: string, grid: string): uPlot.Axis {
  return { stroke: ink, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } };
}
