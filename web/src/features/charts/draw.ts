// Chart.js, tree-shaken to horizontal bars; imported only by BarChart's effect, so it is a lazy chunk of its own.
import { BarController, BarElement, CategoryScale, Chart, LinearScale, type Plugin } from "chart.js";

// No tooltip or legend plugin: every bar carries its number (valueLabels) and the figure its caption.
Chart.register(BarController, BarElement, CategoryScale, LinearScale);

export type Bar = { label: string; value: number };

const css = (name: string, fallback: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;

/** Each bar's number at its end, so the chart reads without hovering. */
const valueLabels: Plugin<"bar"> = {
  id: "valueLabels",
  afterDatasetsDraw(chart) {
    const { ctx } = chart;
    const unit = (chart.options as { unit?: string }).unit ?? "";
    ctx.save();
    ctx.fillStyle = css("--fg", "#1d2433");
    ctx.font = "13px system-ui, sans-serif";
    ctx.textBaseline = "middle";
    for (const [i, bar] of chart.getDatasetMeta(0).data.entries()) {
      ctx.fillText(`${chart.data.datasets[0]?.data[i]}${unit}`, bar.x + 6, bar.y);
    }
    ctx.restore();
  },
};

/** Draws horizontal bars on `canvas` (0…max on the value axis); the caller destroys the returned chart. */
export function drawBars(canvas: HTMLCanvasElement, { bars, max, unit }: { bars: Bar[]; max: number; unit: string }) {
  return new Chart(canvas, {
    type: "bar",
    data: {
      labels: bars.map((b) => (b.label.length > 32 ? `${b.label.slice(0, 31)}…` : b.label)),
      datasets: [{ data: bars.map((b) => b.value), backgroundColor: css("--accent", "#1f4fd1"), barPercentage: 0.7 }],
    },
    options: {
      indexAxis: "y",
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      // Room on the right for the value drawn past the longest bar.
      layout: { padding: { right: 48 } },
      scales: {
        x: { min: 0, max, ticks: { precision: 0, callback: (v: string | number) => `${v}${unit}`, color: css("--muted", "#5b6577") } },
        y: { ticks: { color: css("--fg", "#1d2433") } },
      },
      unit,
    } as never,
    plugins: [valueLabels],
  });
}
