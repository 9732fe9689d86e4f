import { useMutation } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { useI18n } from "../../i18n";
import { DataTable } from "../../ui/DataTable";
import { Field, FormError, fieldError, formatDate } from "../../ui/ui";

/** A row of a grading list: an assignment's submitter or a group assignment's group, its latest revision. */
export type Row = { id: string; name: string; submittedAt: string; isLate: boolean; status: string; score: number | null };

/** The latest submissions to grade; a click opens one (?sub=). Shared by assignments and group assignments. */
export function SubmissionTable({ rows, onOpen, nameHeader }: { rows: Row[]; onOpen: (id: string) => void; nameHeader: string }) {
  const { t, lang } = useI18n();
  return (
    <>
      <DataTable
        label={t("assignment.grading")}
        empty={null}
        rows={rows}
        rowKey={(s) => s.id}
        columns={[
          {
            key: "name",
            header: nameHeader,
            cell: (s) => (
              <button type="button" className="link" onClick={() => onOpen(s.id)}>
                {s.name}
              </button>
            ),
          },
          {
            key: "submittedAt",
            header: t("assignment.submittedAt"),
            cell: (s) => (
              <>
                {formatDate(s.submittedAt, lang)} {s.isLate && <span className="badge late">{t("assignment.late")}</span>}
              </>
            ),
          },
          { key: "status", header: t("assignment.status"), cell: (s) => t(`assignment.statuses.${s.status}`) },
          { key: "score", header: t("quiz.score"), cell: (s) => s.score ?? "—" },
        ]}
      />
      {rows.length === 0 && <p>{t("common.empty")}</p>}
    </>
  );
}

export type GradeInput = { score: number | null; feedback: string | null; rubric?: { criterionId: string; points: number }[] };

/**
 * Scoring one submission: points per rubric criterion (when there is a rubric), a score, feedback, save and
 * return. The calls are the caller's (assignment or group assignment); `children` go above the buttons.
 */
export function GradeForm(props: {
  status: string;
  score: number | null;
  feedback: string | null;
  maxScore: number | null;
  criteria?: { id: string; name: string; maxPoints: number }[];
  rubricMax?: number;
  given?: { criterionId: string; points: number }[];
  grade: (input: GradeInput) => Promise<unknown>;
  giveBack: () => Promise<unknown>;
  /** Feedback saved without touching the score (group assignments have this call). */
  saveFeedback?: (feedback: string | null) => Promise<unknown>;
  onDone: () => void;
  returnLabel: string;
  children?: ReactNode;
}) {
  const { t } = useI18n();
  const criteria = props.criteria ?? [];
  const [points, setPoints] = useState<Record<string, string>>(() =>
    Object.fromEntries((props.given ?? []).map((i) => [i.criterionId, String(i.points)])),
  );
  const [score, setScore] = useState(props.score === null || (props.given?.length ?? 0) > 0 ? "" : String(props.score));
  const [feedback, setFeedback] = useState(props.feedback ?? "");
  const grade = useMutation({
    mutationFn: () => {
      const items = criteria
        .filter((c) => points[c.id] !== undefined && points[c.id] !== "")
        .map((c) => ({ criterionId: c.id, points: Number(points[c.id]) }));
      return props.grade({
        score: score === "" ? null : Number(score),
        feedback: feedback || null,
        ...(items.length ? { rubric: items } : {}),
      });
    },
    onSuccess: props.onDone,
  });
  const giveBack = useMutation({ mutationFn: props.giveBack, onSuccess: props.onDone });
  const note = useMutation({ mutationFn: () => props.saveFeedback?.(feedback || null) ?? Promise.resolve(), onSuccess: props.onDone });
  const total = criteria.reduce((sum, c) => sum + (Number(points[c.id]) || 0), 0);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        grade.mutate();
      }}
    >
      {criteria.length > 0 && (
        <fieldset>
          <legend>{t("assignment.rubric")}</legend>
          {criteria.map((c, i) => (
            <Field
              key={c.id}
              label={`${c.name} (0–${c.maxPoints})`}
              type="number"
              min={0}
              max={c.maxPoints}
              step="any"
              value={points[c.id] ?? ""}
              onChange={(e) => setPoints({ ...points, [c.id]: e.target.value })}
              error={fieldError(grade.error, `rubric[${i}]`, t)}
            />
          ))}
          <p>{t("assignment.rubricTotal", { n: total, max: props.rubricMax ?? 0 })}</p>
        </fieldset>
      )}
      <Field
        label={
          criteria.length
            ? t("assignment.scoreOverride", { max: props.maxScore ?? "—" })
            : t("assignment.scoreOf", { max: props.maxScore ?? "—" })
        }
        type="number"
        min={0}
        step="any"
        value={score}
        onChange={(e) => setScore(e.target.value)}
        error={fieldError(grade.error, "score", t)}
      />
      <div className="field">
        <label htmlFor="grade-feedback">{t("assignment.feedback")}</label>
        <textarea id="grade-feedback" rows={3} value={feedback} onChange={(e) => setFeedback(e.target.value)} />
      </div>
      {props.children}
      <FormError error={grade.error ?? giveBack.error ?? note.error} fields={["score", "rubric"]} />
      {(grade.isSuccess || note.isSuccess) && <p role="status">{t("common.saved")}</p>}
      <div className="inline">
        <button type="submit" className="primary">
          {t("assignment.saveGrade")}
        </button>
        {props.saveFeedback && (
          <button type="button" onClick={() => note.mutate()}>
            {t("assignment.saveFeedbackOnly")}
          </button>
        )}
        <button type="button" disabled={props.status !== "GRADED"} onClick={() => giveBack.mutate()}>
          {props.returnLabel}
        </button>
      </div>
    </form>
  );
}
