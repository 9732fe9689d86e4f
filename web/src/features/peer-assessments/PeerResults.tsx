import { useQuery } from "@tanstack/react-query";
import { useI18n } from "../../i18n";
import { Loading } from "../../ui/ui";
import { BarChart } from "../charts/BarChart";
import { peerResultsQuery } from "./queries";

const round = (n: number | null) => (n === null ? "—" : Math.round(n * 100) / 100);

/** Progress (who has assessed every target) and each target's averages per criterion, with the comments received. */
export function PeerResults({ contentId }: { contentId: string }) {
  const { t } = useI18n();
  const results = useQuery(peerResultsQuery(contentId));
  if (!results.data) return <Loading />;
  const r = results.data;
  return (
    <div>
      <dl className="facts" data-testid="peer-progress">
        <dt>{t("peer.done")}</dt>
        <dd>{r.submittedSubmitterCount}</dd>
        <dt>{t("peer.expected")}</dt>
        <dd>{r.expectedSubmitterCount}</dd>
      </dl>
      {r.expectedSubmitterCount > 0 && (
        <progress
          max={r.expectedSubmitterCount}
          value={r.submittedSubmitterCount}
          aria-label={t("peer.progress", { n: r.submittedSubmitterCount, total: r.expectedSubmitterCount })}
        />
      )}
      <BarChart
        caption={t("peer.averageChart")}
        max={5}
        bars={r.targets.map((x) => ({ label: `${x.targetName} (${x.groupName})`, value: Number(round(x.overallAverage)) || 0 }))}
      />
      <table data-testid="peer-averages">
        <thead>
          <tr>
            <th>{t("peer.target")}</th>
            <th>{t("peer.received")}</th>
            {r.questions.map((q) => (
              <th key={q.id}>{q.assessmentCriteria}</th>
            ))}
            <th>{t("peer.overall")}</th>
          </tr>
        </thead>
        <tbody>
          {r.targets.map((x) => (
            <tr key={x.targetId}>
              <th scope="row">
                {x.targetName} <span className="muted">{x.groupName}</span>
              </th>
              <td>{x.receivedCount}</td>
              {r.questions.map((q) => (
                <td key={q.id}>{round(x.averages.find((a) => a.questionId === q.id)?.average ?? null)}</td>
              ))}
              <td>{round(x.overallAverage)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {r.targets.some((x) => x.comments.length > 0) && (
        <section>
          <h2>{t("peer.comments")}</h2>
          {r.targets
            .filter((x) => x.comments.length > 0)
            .map((x) => (
              <div key={x.targetId}>
                <h3>{x.targetName}</h3>
                <ul className="list">
                  {x.comments.map((c, k) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: comments are anonymous text without ids
                    <li key={k} className="pre">
                      {c}
                    </li>
                  ))}
                </ul>
              </div>
            ))}
        </section>
      )}
    </div>
  );
}
