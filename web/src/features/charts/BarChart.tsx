import { useEffect, useRef, useState } from "react";
import type { Bar } from "./draw";

/**
 * Horizontal bars drawn by Chart.js (loaded on first use, its own chunk). The canvas is decorative for
 * screen readers: the figure's caption names it and its data table (visually hidden) holds every number.
 */
export function BarChart({ caption, bars, max, unit = "" }: { caption: string; bars: Bar[]; max: number; unit?: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [drawn, setDrawn] = useState(false);
  // The bars as a value: a new array with the same numbers does not redraw.
  const data = JSON.stringify(bars);
  useEffect(() => {
    let chart: { destroy(): void } | undefined;
    let live = true;
    void import("./draw").then(({ drawBars }) => {
      if (!live || !canvas.current) return;
      chart = drawBars(canvas.current, { bars: JSON.parse(data) as Bar[], max, unit });
      setDrawn(true);
    });
    return () => {
      live = false;
      chart?.destroy();
    };
  }, [data, max, unit]);
  return (
    <figure className="chart">
      <figcaption>{caption}</figcaption>
      <div className="chart-box" style={{ height: `${bars.length * 32 + 40}px` }} aria-hidden="true">
        <canvas ref={canvas} data-drawn={drawn ? "true" : undefined} />
      </div>
      <table className="sr-only">
        <tbody>
          {bars.map((b, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: labels may repeat (two options named alike); the bars never reorder
            <tr key={`${i}-${b.label}`}>
              <th scope="row">{b.label}</th>
              <td>
                {b.value}
                {unit}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
