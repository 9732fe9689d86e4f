import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { paths } from "../../api/schema";
import { useI18n } from "../../i18n";
import { fromLocalInput, toLocalInput } from "../../ui/datetime";
import { Field, FormError, fieldError, Loading } from "../../ui/ui";
import { assignmentKeys, setAssignmentConfig, setAssignmentRubric, useAssignmentConfig, useRubric } from "./queries";

type Config = paths["/api/v1/assignments/{contentId}/config"]["put"]["requestBody"]["content"]["application/json"];
type Criterion = paths["/api/v1/assignments/{contentId}/rubric"]["put"]["requestBody"]["content"]["application/json"]["criteria"][number];

/** The assignment's rules (maximum score, due time, late and resubmission) and its rubric of scored criteria. */
export function AssignmentEditor({ contentId }: { contentId: string }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const config = useAssignmentConfig(contentId);
  const rubric = useRubric(contentId);
  const [cfg, setCfg] = useState<Config | null>(null);
  const [criteria, setCriteria] = useState<Criterion[] | null>(null);
  useEffect(() => {
    if (config.data && !cfg) setCfg(config.data);
  }, [config.data, cfg]);
  useEffect(() => {
    if (rubric.data && !criteria) setCriteria(rubric.data.criteria.map((c) => ({ id: c.id, name: c.name, maxPoints: c.maxPoints })));
  }, [rubric.data, criteria]);
  const saveCfg = useMutation({
    mutationFn: (body: Config) => setAssignmentConfig({ params: { path: { contentId } }, body }),
    onSuccess: (d) => qc.setQueryData(assignmentKeys.config(contentId), d),
  });
  const saveRubric = useMutation({
    mutationFn: (list: Criterion[]) =>
      setAssignmentRubric({
        params: { path: { contentId } },
        body: { useLevel: false, visibility: "VISIBLE_ALL", criteria: list },
      }),
    onSuccess: (d) => {
      qc.setQueryData(assignmentKeys.rubric(contentId), d);
      setCriteria(d.criteria.map((c) => ({ id: c.id, name: c.name, maxPoints: c.maxPoints })));
    },
  });
  if (!cfg || !criteria) return <Loading />;
  return (
    <div className="stack">
      <form
        className="panel"
        onSubmit={(e) => {
          e.preventDefault();
          saveCfg.mutate(cfg);
        }}
      >
        <h2>{t("assignment.rules")}</h2>
        <div className="inline">
          <Field
            label={t("assignment.maxScore")}
            type="number"
            min={0}
            value={cfg.maxScore ?? ""}
            onChange={(e) => setCfg({ ...cfg, maxScore: e.target.value ? Number(e.target.value) : null })}
            error={fieldError(saveCfg.error, "maxScore", t)}
          />
          <Field
            label={t("assignment.dueAt")}
            type="datetime-local"
            value={toLocalInput(cfg.dueAt)}
            onChange={(e) => setCfg({ ...cfg, dueAt: fromLocalInput(e.target.value) })}
            error={fieldError(saveCfg.error, "dueAt", t)}
          />
          <label className="check">
            <input
              type="checkbox"
              checked={!!cfg.allowLateSubmit}
              onChange={(e) => setCfg({ ...cfg, allowLateSubmit: e.target.checked })}
            />
            {t("assignment.allowLate")}
          </label>
          <label className="check">
            <input type="checkbox" checked={!!cfg.allowResubmit} onChange={(e) => setCfg({ ...cfg, allowResubmit: e.target.checked })} />
            {t("assignment.allowResubmit")}
          </label>
        </div>
        <FormError error={saveCfg.error} fields={["maxScore", "dueAt"]} />
        {saveCfg.isSuccess && <p role="status">{t("common.saved")}</p>}
        <button type="submit" className="primary">
          {t("assignment.saveRules")}
        </button>
      </form>
      <form
        className="panel"
        onSubmit={(e) => {
          e.preventDefault();
          saveRubric.mutate(criteria);
        }}
      >
        <h2>{t("assignment.rubric")}</h2>
        {criteria.map((c, i) => (
          <div className="inline" key={c.id ?? `new-${i}`}>
            <Field
              label={t("assignment.criterionN", { n: i + 1 })}
              value={c.name ?? ""}
              onChange={(e) => setCriteria(criteria.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))}
              error={fieldError(saveRubric.error, `criteria[${i}].name`, t)}
            />
            <Field
              label={t("assignment.criterionMax", { n: i + 1 })}
              type="number"
              min={0}
              value={c.maxPoints ?? 0}
              onChange={(e) => setCriteria(criteria.map((x, j) => (j === i ? { ...x, maxPoints: Number(e.target.value) } : x)))}
              error={fieldError(saveRubric.error, `criteria[${i}].maxPoints`, t)}
            />
            <button type="button" className="small danger" onClick={() => setCriteria(criteria.filter((_, j) => j !== i))}>
              {t("common.remove")}
            </button>
          </div>
        ))}
        <button type="button" onClick={() => setCriteria([...criteria, { name: "", maxPoints: 5 }])}>
          {t("assignment.addCriterion")}
        </button>
        <FormError error={saveRubric.error} fields={["criteria"]} />
        {saveRubric.isSuccess && <p role="status">{t("common.saved")}</p>}
        <button type="submit" className="primary">
          {t("assignment.saveRubric")}
        </button>
      </form>
    </div>
  );
}
