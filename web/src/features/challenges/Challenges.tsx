import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "../../i18n";
import { useSearch } from "../../ui/router";
import { Loading, Select } from "../../ui/ui";
import { ChallengeForm } from "./ChallengeForm";
import { ChallengeView } from "./ChallengeView";
import { challengesQuery } from "./queries";

const STATES = ["", "BEFORE_START", "ONGOING", "FINISHED"] as const;

/** A space's challenges: the list (by state, or only the ones I joined), a new one, and the open one (`&challenge=`). */
export default function Challenges({ spaceId, admin }: { spaceId: string; admin: boolean }) {
  const { t } = useI18n();
  const { get, set } = useSearch();
  const open = get("challenge");
  const [state, setState] = useState("");
  const [joined, setJoined] = useState(false);
  const [creating, setCreating] = useState(false);
  const list = useQuery({ ...challengesQuery(spaceId, state, joined), enabled: !open });
  if (open) return <ChallengeView key={open} spaceId={spaceId} challengeId={open} admin={admin} onClose={() => set({ challenge: null })} />;
  return (
    <div className="stack">
      {creating ? (
        <ChallengeForm
          spaceId={spaceId}
          onDone={(id) => {
            setCreating(false);
            if (id) set({ challenge: id });
          }}
        />
      ) : (
        <div>
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            {t("challenges.new")}
          </button>
        </div>
      )}
      <div className="filters">
        <Select
          label={t("challenges.state")}
          value={state}
          onChange={setState}
          options={STATES.map((s) => ({ value: s, label: s ? t(`challenges.states.${s}`) : t("common.all") }))}
        />
        <label className="check">
          <input type="checkbox" checked={joined} onChange={(e) => setJoined(e.target.checked)} /> {t("challenges.joinedOnly")}
        </label>
      </div>
      {!list.data ? (
        <Loading />
      ) : list.data.challenges.length === 0 ? (
        <p>{t("common.empty")}</p>
      ) : (
        <ul className="cards">
          {list.data.challenges.map((c) => (
            <li key={c.id}>
              <button type="button" className="link" onClick={() => set({ challenge: c.id })}>
                <span aria-hidden="true">{c.emoji}</span> {c.title}
              </button>
              <small className="muted">
                {t(`challenges.states.${c.state}`)} · {t("challenges.counts", { members: c.memberCount, tasks: c.totalTaskCount })}
                {c.joined && ` · ${t("challenges.myProgress", { n: Math.round(c.progress) })}`}
                {` · ${t("challenges.average", { n: Math.round(c.totalProgress) })}`}
              </small>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
