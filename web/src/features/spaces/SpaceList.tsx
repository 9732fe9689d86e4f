import * as Tabs from "@radix-ui/react-tabs";
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import { can, useUser } from "../../app/session";
import { useI18n } from "../../i18n";
import { Link } from "../../ui/Link";
import { navigate, useSearch } from "../../ui/router";
import { Field, FormError, fieldError, Loading, Modal, MoreButton } from "../../ui/ui";
import { createSpace, joinSpaceWithCode, spaceKeys, spacePath, spacesQuery, useSpaceCategories } from "./queries";
import { type SpaceDraft, SpaceForm, spaceBody } from "./SpaceForm";

const SpaceCategories = lazy(() => import("./SpaceCategories"));

const EMPTY: SpaceDraft = {
  name: "",
  representativeName: "",
  semester: "",
  description: "",
  isPublic: false,
  autoJoin: false,
  exitRestricted: false,
  allowFileDownload: true,
  retainEnrollmentHistory: false,
  messageEnabled: false,
  startMenu: "announcement",
  enabledMenus: [],
};

/** My spaces (active or ended, by semester when the school uses them), joining one with a code, creating one. */
export function SpaceList() {
  const { t } = useI18n();
  const user = useUser();
  const { get, set } = useSearch();
  const tabs = ["active", "inactive", ...(can(user, "tenant-settings:manage") ? ["settings"] : [])];
  const tab = tabs.find((v) => v === get("status")) ?? "active";
  const semester = get("semester") ?? "";
  const categories = useSpaceCategories();
  const qc = useQueryClient();
  const spaces = useInfiniteQuery(spacesQuery(tab, semester));
  const [code, setCode] = useState("");
  const [codePassword, setCodePassword] = useState("");
  const join = useMutation({
    mutationFn: () => joinSpaceWithCode({ body: { code, password: codePassword || null } }),
    onSuccess: (r) => {
      void qc.invalidateQueries({ queryKey: spaceKeys.all });
      navigate(spacePath(r.space.id));
    },
  });
  const [creating, setCreating] = useState(false);
  const list = spaces.data?.pages.flatMap((p) => p.spaces) ?? [];
  return (
    <section>
      <div className="title-row">
        <h1>{t("spaces.title")}</h1>
        {can(user, "space:create") && (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            {t("spaces.new")}
          </button>
        )}
      </div>
      <form
        className="inline"
        onSubmit={(e) => {
          e.preventDefault();
          join.mutate();
        }}
      >
        <Field
          label={t("spaces.joinCode")}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          required
          error={fieldError(join.error, "code", t)}
        />
        <Field
          label={t("spaces.joinPassword")}
          value={codePassword}
          onChange={(e) => setCodePassword(e.target.value)}
          error={fieldError(join.error, "password", t)}
        />
        <button type="submit">{t("spaces.join")}</button>
      </form>
      <FormError error={join.error} fields={["code", "password"]} />
      {creating && <CreateSpace onClose={() => setCreating(false)} />}
      <Tabs.Root value={tab} onValueChange={(v) => set({ status: v === "active" ? null : v })}>
        <Tabs.List aria-label={t("spaces.title")} className="tabs">
          <Tabs.Trigger value="active">{t("spaces.active")}</Tabs.Trigger>
          <Tabs.Trigger value="inactive">{t("spaces.inactive")}</Tabs.Trigger>
          {can(user, "tenant-settings:manage") && <Tabs.Trigger value="settings">{t("spaces.categories")}</Tabs.Trigger>}
        </Tabs.List>
        {tabs.map((v) => (
          <Tabs.Content key={v} value={v}>
            {v === tab && v === "settings" && (
              <Suspense fallback={<Loading />}>
                <SpaceCategories />
              </Suspense>
            )}
            {v === tab && v !== "settings" && (
              <>
                {categories.data?.semesterEnabled && (
                  <div className="filters">
                    <Field
                      label={t("spaces.semester")}
                      type="search"
                      value={semester}
                      onChange={(e) => set({ semester: e.target.value }, true)}
                    />
                  </div>
                )}
                {!spaces.data ? (
                  <Loading />
                ) : list.length === 0 ? (
                  <p>{t("common.empty")}</p>
                ) : (
                  <ul className="cards">
                    {list.map((s) => (
                      <li key={s.id}>
                        <Link to={spacePath(s.id)}>{s.name}</Link>
                        <small className="muted">
                          {s.semester && `${s.semester} · `}
                          {t("spaces.counts", { members: s.participantCount, posts: s.postCount, contents: s.contentCount })}
                          {s.isPublic && ` · ${t("spaces.public")}`}
                        </small>
                      </li>
                    ))}
                  </ul>
                )}
                <MoreButton list={spaces} label={t("spaces.moreSpaces")} />
              </>
            )}
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </section>
  );
}

/** The new-space dialog (createSpace): the space opens once created. */
function CreateSpace({ onClose }: { onClose: () => void }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const [draft, setDraft] = useState(EMPTY);
  const create = useMutation({
    mutationFn: () => createSpace({ body: spaceBody(draft) }),
    onSuccess: (r) => {
      void qc.invalidateQueries({ queryKey: spaceKeys.all });
      onClose();
      navigate(spacePath(r.id));
    },
  });
  return (
    <Modal open onOpenChange={(o) => !o && onClose()} title={t("spaces.new")}>
      <SpaceForm
        draft={draft}
        onChange={(p) => setDraft({ ...draft, ...p })}
        onSubmit={() => create.mutate()}
        error={create.error}
        submitLabel={t("spaces.create")}
        editing={false}
        busy={create.isPending}
      />
    </Modal>
  );
}
