import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "../../i18n";
import { fromLocalInput, toLocalInput } from "../../ui/datetime";
import { Field, FormError, fieldError, formatDate, MoreButton } from "../../ui/ui";
import { addChallengeTask, challengeKeys, taskStatusQuery } from "./queries";

/** Who has done one task (getChallengeTaskStatus), read when its admin opens it. */
export function TaskStatus({ spaceId, challengeId, taskId }: { spaceId: string; challengeId: string; taskId: string }) {
  const { t, lang } = useI18n();
  const [open, setOpen] = useState(false);
  const status = useInfiniteQuery({ ...taskStatusQuery(spaceId, challengeId, taskId), enabled: open });
  const first = status.data?.pages[0];
  const rows = status.data?.pages.flatMap((p) => p.members) ?? [];
  return (
    <div>
      <button type="button" className="small" aria-expanded={open} onClick={() => setOpen(!open)}>
        {t("challenges.whoDid")}
      </button>
      {open && first && (
        <div>
          <p className="muted">{t("challenges.taskCounts", { done: first.completedMemberCount, all: first.allMemberCount })}</p>
          <ul className="list">
            {rows.map((m) => (
              <li key={m.userId}>
                {m.displayName} · {m.done ? t("challenges.doneAt", { at: formatDate(m.completedAt, lang) }) : t("challenges.notDone")}
              </li>
            ))}
          </ul>
          <MoreButton list={status} label={t("challenges.moreMembers")} />
        </div>
      )}
    </div>
  );
}

/** Adds one task to a challenge (addChallengeTask): its title and start. */
export function AddTask({ spaceId, challengeId }: { spaceId: string; challengeId: string }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const [title, setTitle] = useState("");
  const [startedAt, setStartedAt] = useState(() => toLocalInput(new Date().toISOString()));
  const add = useMutation({
    mutationFn: () =>
      addChallengeTask({
        params: { path: { spaceId, challengeId } },
        body: { title, startedAt: fromLocalInput(startedAt) ?? "" },
      }),
    onSuccess: (c) => {
      setTitle("");
      qc.setQueryData(challengeKeys.challenge(spaceId, challengeId), c);
      void qc.invalidateQueries({ queryKey: challengeKeys.space(spaceId) });
      void qc.invalidateQueries({ queryKey: challengeKeys.members(spaceId, challengeId) });
    },
  });
  return (
    <form
      className="inline"
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      <Field
        label={t("challenges.newTaskTitle")}
        value={title}
        required
        maxLength={30}
        onChange={(e) => setTitle(e.target.value)}
        error={fieldError(add.error, "title", t)}
      />
      <Field
        label={t("challenges.newTaskStarts")}
        type="datetime-local"
        required
        value={startedAt}
        onChange={(e) => setStartedAt(e.target.value)}
        error={fieldError(add.error, "startedAt", t)}
      />
      <button type="submit">{t("challenges.addTask")}</button>
      <FormError error={add.error} fields={["title", "startedAt"]} />
    </form>
  );
}
