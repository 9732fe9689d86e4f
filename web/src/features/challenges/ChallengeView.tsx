import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useUser } from "../../app/session";
import { useI18n } from "../../i18n";
import { ConfirmButton, FormError, formatDate, Loading } from "../../ui/ui";
import { AttachmentList } from "../files/Attachments";
import { ChallengeForm } from "./ChallengeForm";
import { ChallengeMembers } from "./ChallengeMembers";
import {
  addChallengeMembers,
  challengeKeys,
  challengeQuery,
  completeChallengeTask,
  deleteChallenge,
  leaveChallenge,
  uncompleteChallengeTask,
} from "./queries";
import { AddTask, TaskStatus } from "./TaskStatus";

/**
 * One challenge: its tasks, which a member ticks off while they are open (complete/uncomplete),
 * joining and leaving; its author and the space's admins also see the members' progress.
 */
export function ChallengeView(props: { spaceId: string; challengeId: string; admin: boolean; onClose: () => void }) {
  const { t, lang } = useI18n();
  const { spaceId, challengeId } = props;
  const user = useUser();
  const qc = useQueryClient();
  const [editing, setEditing] = useState(false);
  // A ticked box shows its new state at once; the server's answer then replaces it.
  const [ticked, setTicked] = useState<Record<string, boolean>>({});
  const path = { spaceId, challengeId };
  const challenge = useQuery(challengeQuery(spaceId, challengeId));
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: challengeKeys.challenge(spaceId, challengeId) });
    void qc.invalidateQueries({ queryKey: challengeKeys.space(spaceId) });
    void qc.invalidateQueries({ queryKey: challengeKeys.members(spaceId, challengeId) });
  };
  const join = useMutation({
    mutationFn: () => addChallengeMembers({ params: { path }, body: { userIds: [user.id] } }),
    onSuccess: refresh,
  });
  const leave = useMutation({
    mutationFn: () => leaveChallenge({ params: { path } }),
    onSuccess: refresh,
  });
  const toggle = useMutation({
    mutationFn: ({ taskId, done }: { taskId: string; done: boolean }) => {
      const p = { params: { path: { ...path, taskId } } };
      return done ? completeChallengeTask(p) : uncompleteChallengeTask(p);
    },
    onSuccess: (mine) => {
      // The answer is my progress: shown at once, before the refetch.
      qc.setQueryData(challengeKeys.challenge(spaceId, challengeId), (old: typeof challenge.data) =>
        old ? { ...old, tasks: mine.tasks, progress: mine.progress, doneTaskCount: mine.doneTaskCount } : old,
      );
      refresh();
    },
    onSettled: () => setTicked({}),
  });

  const remove = useMutation({
    mutationFn: () => deleteChallenge({ params: { path } }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: challengeKeys.space(spaceId) });
      props.onClose();
    },
  });
  if (!challenge.data) return <Loading />;
  const c = challenge.data;
  if (editing) return <ChallengeForm spaceId={spaceId} challenge={c} onDone={() => setEditing(false)} />;
  const now = Date.now();
  const isOpen = (task: { startedAt: string; deadline: string | null }) =>
    c.state === "ONGOING" && Date.parse(task.startedAt) <= now && (task.deadline === null || now <= Date.parse(task.deadline));
  return (
    <div className="stack">
      <p>
        <button type="button" className="link" onClick={props.onClose}>
          ← {t("challenges.all")}
        </button>
      </p>
      <section className="panel">
        <h2>
          <span aria-hidden="true">{c.emoji}</span> {c.title}
        </h2>
        <p className="muted">
          {t(`challenges.states.${c.state}`)} · {c.authorName ?? "—"} ·{" "}
          {t("challenges.counts", { members: c.memberCount, tasks: c.totalTaskCount })}
        </p>
        {c.body && <p className="pre">{c.body}</p>}
        <AttachmentList files={c.attachments} />
        {c.joined && (
          <div className="field">
            <label htmlFor="my-challenge-progress">{t("challenges.myProgress", { n: Math.round(c.progress) })}</label>
            <progress id="my-challenge-progress" max={100} value={c.progress} />
          </div>
        )}
        <FormError error={join.error ?? leave.error ?? toggle.error ?? remove.error} fields={[]} />
        <div className="actions">
          {c.joined ? (
            <ConfirmButton question={t("challenges.leaveConfirm")} onConfirm={() => leave.mutate()}>
              {t("challenges.leave")}
            </ConfirmButton>
          ) : (
            c.state !== "FINISHED" && (
              <button type="button" className="primary" onClick={() => join.mutate()}>
                {t("challenges.join")}
              </button>
            )
          )}
          {props.admin && (
            <>
              <button type="button" onClick={() => setEditing(true)}>
                {t("challenges.edit")}
              </button>
              <ConfirmButton
                className="danger"
                question={t("challenges.deleteConfirm", { title: c.title })}
                onConfirm={() => remove.mutate()}
              >
                {t("common.delete")}
              </ConfirmButton>
            </>
          )}
        </div>
      </section>
      <section className="panel">
        <h2>{t("challenges.tasks")}</h2>
        <ol className="list">
          {c.tasks.map((task) => (
            <li key={task.id}>
              {c.joined ? (
                <label className="check">
                  <input
                    type="checkbox"
                    checked={ticked[task.id] ?? task.done}
                    disabled={!isOpen(task) || toggle.isPending}
                    onChange={(e) => {
                      setTicked({ ...ticked, [task.id]: e.target.checked });
                      toggle.mutate({ taskId: task.id, done: e.target.checked });
                    }}
                  />{" "}
                  {task.title}
                </label>
              ) : (
                <strong>{task.title}</strong>
              )}{" "}
              <small className="muted">
                {formatDate(task.startedAt, lang)} – {formatDate(task.deadline, lang)}
                {task.done && task.completedAt && ` · ${t("challenges.doneAt", { at: formatDate(task.completedAt, lang) })}`}
              </small>
              {task.guide && <p className="pre muted">{task.guide}</p>}
              {props.admin && <TaskStatus spaceId={spaceId} challengeId={challengeId} taskId={task.id} />}
            </li>
          ))}
        </ol>
        {props.admin && <AddTask spaceId={spaceId} challengeId={challengeId} />}
      </section>
      {props.admin && <ChallengeMembers spaceId={spaceId} challengeId={challengeId} onChange={refresh} />}
    </div>
  );
}
