import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useI18n } from "../../i18n";
import { fromLocalInput, toLocalInput } from "../../ui/datetime";
import { Field, FormError, fieldError } from "../../ui/ui";
import { type ChallengeBody, type ChallengeDetail, challengeKeys, createChallenge, updateChallenge } from "./queries";

type TaskDraft = { id?: string; title: string; guide: string; startedAt: string; deadline: string };

const newTask = (): TaskDraft => ({ title: "", guide: "", startedAt: toLocalInput(new Date().toISOString()), deadline: "" });

/**
 * A new challenge (createChallenge, any member of the space) or an edit of one (updateChallenge, a
 * full replace: tasks keep their ids, a removed task goes with its completions). onDone gets the id.
 */
export function ChallengeForm(props: { spaceId: string; challenge?: ChallengeDetail; onDone: (id: string | null) => void }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const c = props.challenge;
  const bodyId = useId();
  const [title, setTitle] = useState(c?.title ?? "");
  const [emoji, setEmoji] = useState(c?.emoji ?? "🏃");
  const [body, setBody] = useState(c?.body ?? "");
  const [includeAuthor, setIncludeAuthor] = useState(false);
  const [tasks, setTasks] = useState<TaskDraft[]>(
    c
      ? c.tasks.map((x) => ({
          id: x.id,
          title: x.title,
          guide: x.guide ?? "",
          startedAt: toLocalInput(x.startedAt),
          deadline: toLocalInput(x.deadline),
        }))
      : [newTask()],
  );
  const save = useMutation({
    mutationFn: () => {
      const payload: ChallengeBody = {
        title,
        emoji,
        body,
        includeAuthor,
        tasks: tasks.map((x, index) => ({
          ...(x.id ? { id: x.id } : {}),
          title: x.title,
          guide: x.guide || null,
          index,
          startedAt: fromLocalInput(x.startedAt) ?? "",
          deadline: fromLocalInput(x.deadline),
        })),
      };
      const path = { spaceId: props.spaceId };
      return c
        ? updateChallenge({
            params: { path: { ...path, challengeId: c.id } },
            body: payload,
          })
        : createChallenge({ params: { path }, body: payload });
    },
    onSuccess: (r) => {
      void qc.invalidateQueries({ queryKey: challengeKeys.space(props.spaceId) });
      void qc.invalidateQueries({ queryKey: challengeKeys.challenge(props.spaceId, r.id) });
      props.onDone(r.id);
    },
  });
  const setTask = (i: number, p: Partial<TaskDraft>) => setTasks(tasks.map((x, j) => (j === i ? { ...x, ...p } : x)));
  return (
    <form
      className="panel stack"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <h2>{c ? t("challenges.edit") : t("challenges.new")}</h2>
      <div className="inline">
        <Field
          label={t("challenges.emoji")}
          value={emoji}
          required
          size={4}
          onChange={(e) => setEmoji(e.target.value)}
          error={fieldError(save.error, "emoji", t)}
        />
        <Field
          label={t("challenges.title")}
          value={title}
          required
          maxLength={30}
          onChange={(e) => setTitle(e.target.value)}
          error={fieldError(save.error, "title", t)}
        />
      </div>
      <div className="field">
        <label htmlFor={bodyId}>{t("challenges.body")}</label>
        <textarea id={bodyId} rows={2} value={body} onChange={(e) => setBody(e.target.value)} />
      </div>
      {!c && (
        <label className="check">
          <input type="checkbox" checked={includeAuthor} onChange={(e) => setIncludeAuthor(e.target.checked)} />{" "}
          {t("challenges.includeAuthor")}
        </label>
      )}
      {tasks.map((x, i) => (
        <fieldset key={x.id ?? `new-${i}`} className="question">
          <legend>{t("challenges.taskN", { n: i + 1 })}</legend>
          <Field
            label={t("challenges.taskTitle", { n: i + 1 })}
            value={x.title}
            required
            maxLength={30}
            onChange={(e) => setTask(i, { title: e.target.value })}
            error={fieldError(save.error, `tasks[${i}].title`, t)}
          />
          <Field label={t("challenges.guide", { n: i + 1 })} value={x.guide} onChange={(e) => setTask(i, { guide: e.target.value })} />
          <div className="inline">
            <Field
              label={t("challenges.startsAt", { n: i + 1 })}
              type="datetime-local"
              required
              value={x.startedAt}
              onChange={(e) => setTask(i, { startedAt: e.target.value })}
              error={fieldError(save.error, `tasks[${i}].startedAt`, t)}
            />
            <Field
              label={t("challenges.deadline", { n: i + 1 })}
              type="datetime-local"
              value={x.deadline}
              onChange={(e) => setTask(i, { deadline: e.target.value })}
              error={fieldError(save.error, `tasks[${i}].deadline`, t)}
            />
          </div>
          {tasks.length > 1 && (
            <button type="button" className="small" onClick={() => setTasks(tasks.filter((_, j) => j !== i))}>
              {t("challenges.removeTask", { n: i + 1 })}
            </button>
          )}
        </fieldset>
      ))}
      <div>
        <button type="button" disabled={tasks.length >= 100} onClick={() => setTasks([...tasks, newTask()])}>
          {t("challenges.addTask")}
        </button>
      </div>
      <FormError error={save.error} fields={["title", "emoji", "tasks"]} />
      <div className="actions">
        <button type="submit" className="primary" disabled={save.isPending}>
          {c ? t("common.save") : t("challenges.create")}
        </button>
        <button type="button" onClick={() => props.onDone(null)}>
          {t("challenges.cancel")}
        </button>
      </div>
    </form>
  );
}
