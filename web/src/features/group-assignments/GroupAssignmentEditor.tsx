import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { paths } from "../../api/schema";
import { useI18n } from "../../i18n";
import { fromLocalInput, toLocalInput } from "../../ui/datetime";
import { Field, FormError, fieldError, Loading, Select } from "../../ui/ui";
import { GroupSetPicker } from "../group-work/GroupSetPicker";
import { groupAssignmentKeys, setGroupAssignmentConfig, useGroupAssignmentConfig } from "./queries";

type Body = paths["/api/v1/group-assignments/{contentId}/config"]["put"]["requestBody"]["content"]["application/json"];
type Method = NonNullable<Body["submissionMethod"]>;

/** Which group set works on it, its maximum score and due time, and what a group's submission needs. */
export function GroupAssignmentEditor({ contentId, spaceId }: { contentId: string; spaceId: string }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const config = useGroupAssignmentConfig(contentId);
  const [cfg, setCfg] = useState<Body | null>(null);
  useEffect(() => {
    if (config.data && !cfg) setCfg(config.data.config);
  }, [config.data, cfg]);
  const save = useMutation({
    mutationFn: (body: Body) => setGroupAssignmentConfig({ params: { path: { contentId } }, body }),
    onSuccess: (d) => qc.setQueryData(groupAssignmentKeys.config(contentId), d),
  });
  if (!cfg || !config.data) return <Loading />;
  const c = save.data ?? config.data;
  const err = (f: string) => fieldError(save.error, f, t);
  return (
    <form
      className="panel stack"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(cfg);
      }}
    >
      <GroupSetPicker spaceId={spaceId} value={cfg.spaceGroupSetId ?? null} onChange={(id) => setCfg({ ...cfg, spaceGroupSetId: id })} />
      {!c.isLinkValid && c.linkInvalidReason && <p className="muted">{t(`groupWork.link.${c.linkInvalidReason}`)}</p>}
      <div className="inline">
        <Field
          label={t("assignment.maxScore")}
          type="number"
          min={1}
          value={cfg.maxScore ?? ""}
          onChange={(e) => setCfg({ ...cfg, maxScore: e.target.value ? Number(e.target.value) : null })}
          error={err("maxScore")}
        />
        <Field
          label={t("assignment.dueAt")}
          type="datetime-local"
          value={toLocalInput(cfg.dueAt)}
          onChange={(e) => setCfg({ ...cfg, dueAt: fromLocalInput(e.target.value) })}
          error={err("dueAt")}
        />
        <Select
          label={t("groupWork.method")}
          value={cfg.submissionMethod ?? "ANY_MEMBER"}
          onChange={(v) => setCfg({ ...cfg, submissionMethod: v as Method })}
          options={(["ANY_MEMBER", "ALL_MEMBERS"] as const).map((x) => ({ value: x, label: t(`groupWork.methods.${x}`) }))}
        />
      </div>
      <div className="inline">
        <label className="check">
          <input type="checkbox" checked={!!cfg.allowLateSubmit} onChange={(e) => setCfg({ ...cfg, allowLateSubmit: e.target.checked })} />
          {t("assignment.allowLate")}
        </label>
        <label className="check">
          <input type="checkbox" checked={!!cfg.bodyRequired} onChange={(e) => setCfg({ ...cfg, bodyRequired: e.target.checked })} />
          {t("groupWork.bodyRequired")}
        </label>
        <label className="check">
          <input type="checkbox" checked={!!cfg.fileRequired} onChange={(e) => setCfg({ ...cfg, fileRequired: e.target.checked })} />
          {t("groupWork.fileRequired")}
        </label>
      </div>
      <FormError error={save.error} fields={["maxScore", "dueAt", "spaceGroupSetId"]} />
      {save.isSuccess && <p role="status">{t("common.saved")}</p>}
      <button type="submit" className="primary" disabled={save.isPending}>
        {t("assignment.saveRules")}
      </button>
    </form>
  );
}
