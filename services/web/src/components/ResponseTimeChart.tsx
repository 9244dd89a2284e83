import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Schema } from '@uptime/client';
import type { Format } from '../app/format';
import { usePreferences } from '../app/session';
import { chartBands, describeSeries, type Band } from './chart-bands';

type Series = Schema<'MonitorStats'>['series'];

const HEIGHT = 220;
/** The narrowest band drawn, in CSS pixels. */
const MIN_BAND_PX = 3;

interface Props {
  series: Series;
  fmt: Format;
  label: string;
  /** The period shown, so the axis spans all of it however few checks there are. */
  periodMs: number;
  /** A bucket's length; null for a point per check. */
  stepMs: number | null;
}

/**
 * Response time per bucket of the stats `series`, or per check over a short period (uPlot: small
 * and fast), with the time a check failed shaded red and the time in a maintenance window blue
 * (docs/web.md, "The response-time chart"); what is said below it counts the same checks.
 */
export function ResponseTimeChart({ series, fmt, label, periodMs, stepMs }: Props) {
  const host = useRef<HTMLDivElement>(null);
  // Redrawn with the theme's colours when it changes.
  const theme = usePreferences().data?.theme;

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const xs = series.map((b) => Date.parse(b.timestamp) / 1000);
    const ys = series.map((b) => b.avg_response_time);
    const colours = {
      accent: themeColor(el, '--accent'),
      ink: themeColor(el, '--muted'),
      grid: themeColor(el, '--border'),
      bad: themeColor(el, '--bad'),
      info: themeColor(el, '--info'),
    };
    const now = Date.now();
    const range: [number, number] = [(now - periodMs) / 1000, now / 1000];
    // Within a day the axis shows clock times, over longer periods dates; both in the user's zone.
    const tick = periodMs > 2 * 86_400_000 ? fmt.axisDate : fmt.axisTime;
    const measured = ys.filter((y) => y !== null).length;
    const bands = chartBands(series, stepMs, now);
    const plot = new uPlot(chartOptions({ width: el.clientWidth || 600, colours, tick, showPoints: measured < 60, range, bands }), [xs, ys], el);
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [series, fmt, theme, periodMs, stepMs]);

  const said = describeSeries(series);
  const bands = chartBands(series, stepMs, Date.now());
  return (
    <figure className="chart">
      <div ref={host} role="img" aria-label={`${label}: ${said.summary}`} />
      {said.caption && <figcaption className="muted">{said.caption}</figcaption>}
      {bands.length > 0 && (
        <p className="chart-legend small muted">
          {bands.some((b) => b.kind === 'down') && (
            <span>
              <span className="swatch swatch-down" aria-hidden="true" /> Shaded red: checks failed
            </span>
          )}
          {bands.some((b) => b.kind === 'maintenance') && (
            <span>
              <span className="swatch swatch-maintenance" aria-hidden="true" /> Shaded blue: in a maintenance window
            </span>
          )}
        </p>
      )}
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

const withAlpha = (rgb: string, alpha: number): string => rgb.replace(/^rgb\((.*)\)$/, `rgba($1, ${alpha})`);

interface Colours {
  accent: string;
  ink: string;
  grid: string;
  bad: string;
  info: string;
}

interface ChartSetup {
  width: number;
  colours: Colours;
  tick: (ms: number) => string;
  showPoints: boolean;
  range: [number, number];
  bands: Band[];
}

/**
 * The line in the accent colour, points only while few enough to tell apart; the x axis over the
 * whole period, labelled by `tick`; the bands painted under the line (a `drawClear` hook).
 */
function chartOptions({ width, colours, tick, showPoints, range, bands }: ChartSetup): uPlot.Options {
  const { accent, ink, grid } = colours;
  const shade = (u: uPlot): void => {
    const { ctx } = u;
    const { top, height, left, width: plotWidth } = u.bbox;
    ctx.save();
    for (const b of bands) {
      const x0 = Math.max(left, u.valToPos(b.from / 1000, 'x', true));
      const x1 = Math.min(left + plotWidth, u.valToPos(b.to / 1000, 'x', true));
      if (x1 <= x0) continue;
      ctx.fillStyle = b.kind === 'down' ? withAlpha(colours.bad, b.strength * 0.22) : withAlpha(colours.info, 0.16);
      // At least a few pixels wide, ending at the band's end: a failed check seconds ago, or one
      // over 90 days, still shows.
      const w = Math.max(MIN_BAND_PX * devicePixelRatio, x1 - x0);
      ctx.fillRect(Math.max(left, x1 - w), top, w, height);
    }
    ctx.restore();
  };
  return {
    width,
    height: HEIGHT,
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: true, range: () => range } },
    axes: [
      // A date once: several ticks of one day (every 6 hours over a week) say it at the first.
      { ...axisStyle(ink, grid), values: (_u, ticks) => ticks.map((t, i) => (i > 0 && tick(ticks[i - 1]! * 1000) === tick(t * 1000) ? '' : tick(t * 1000))) },
      { ...axisStyle(ink, grid), values: (_u, ticks) => ticks.map((t) => `${t} ms`), size: 60 },
    ],
    hooks: { drawClear: [shade] },
    series: [
      {},
      {
        label: 'Response time',
        stroke: accent,
        width: 2,
        fill: withAlpha(accent, 0.13),
        spanGaps: false,
        points: { show: showPoints, size: 5, fill: accent },
      },
    ],
  };
}

function axisStyle(ink: string, grid: string): uPlot.Axis {
  return { stroke: ink, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } };
}
