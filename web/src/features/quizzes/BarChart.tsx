/**
 * Accessible SVG bars (no chart library: uPlot or Chart.js would add 45–70 KB gzipped to this chunk for a
 * handful of bars). The figure is described by its caption and a data table screen readers read.
 */
export function BarChart({
  caption,
  bars,
  max,
  unit = "",
}: {
  caption: string;
  bars: { label: string; value: number }[];
  max: number;
  unit?: string;
}) {
  const row = 28;
  const width = 560;
  const labelW = 200;
  const scale = (v: number) => (max > 0 ? ((width - labelW - 60) * Math.min(v, max)) / max : 0);
  return (
    <figure className="chart">
      <figcaption>{caption}</figcaption>
      <svg width={width} height={bars.length * row + 4} aria-hidden="true" focusable="false">
        {bars.map((b, i) => (
          <g key={b.label} transform={`translate(0 ${i * row})`}>
            <text x={labelW - 8} y={18} textAnchor="end" className="chart-label">
              {b.label.length > 28 ? `${b.label.slice(0, 27)}…` : b.label}
            </text>
            <rect x={labelW} y={4} width={Math.max(1, scale(b.value))} height={row - 8} className="chart-bar" />
            <text x={labelW + scale(b.value) + 6} y={18} className="chart-value">
              {b.value}
              {unit}
            </text>
          </g>
        ))}
      </svg>
      <table className="sr-only">
        <tbody>
          {bars.map((b) => (
            <tr key={b.label}>
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
