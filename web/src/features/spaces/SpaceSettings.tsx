import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { paths } from "../../api/schema";
import { can, useUser } from "../../app/session";
import { useI18n } from "../../i18n";
import { navigate } from "../../ui/router";
import { ConfirmButton, FormError } from "../../ui/ui";
import { CopySpace } from "./CopySpace";
import { deleteSpace, type Space, spaceKeys, updateSpace } from "./queries";
import { type SpaceDraft, SpaceForm, spaceBody } from "./SpaceForm";

type SpacePatch = NonNullable<paths["/api/v1/spaces/{spaceId}"]["patch"]["requestBody"]>["content"]["application/json"];

const draftOf = (s: Space): SpaceDraft => ({
  name: s.name,
  representativeName: s.representativeName ?? "",
  semester: s.semester ?? "",
  description: s.description ?? "",
  isPublic: s.isPublic,
  autoJoin: s.autoJoin,
  exitRestricted: s.exitRestricted,
  allowFileDownload: s.allowFileDownload,
  retainEnrollmentHistory: s.retainEnrollmentHistory,
  messageEnabled: s.messageEnabled,
  startMenu: s.startMenu,
  enabledMenus: s.enabledMenus,
});

/** A space's settings for its admins (updateSpace), archiving it at the end of term, and (its owner) deleting it. */
export default function SpaceSettings({ space, isOwner }: { space: Space; isOwner: boolean }) {
  const { t } = useI18n();
  const user = useUser();
  const qc = useQueryClient();
  const [draft, setDraft] = useState(() => draftOf(space));
  const [saved, setSaved] = useState(false);
  const patch = (body: SpacePatch) => updateSpace({ params: { path: { spaceId: space.id } }, body });
  const refresh = (s: Space) => {
    qc.setQueryData(spaceKeys.space(space.id), s);
    void qc.invalidateQueries({ queryKey: spaceKeys.all });
  };
  const save = useMutation({
    mutationFn: () =>
      patch({
        ...spaceBody(draft),
        messageEnabled: draft.messageEnabled,
        startMenu: draft.startMenu as SpacePatch["startMenu"],
        enabledMenus: draft.enabledMenus as SpacePatch["enabledMenus"],
      }),
    onSuccess: (s) => {
      refresh(s);
      setDraft(draftOf(s));
      setSaved(true);
    },
  });
  const archive = useMutation({ mutationFn: (isActive: boolean) => patch({ isActive }), onSuccess: refresh });
  const remove = useMutation({
    mutationFn: () => deleteSpace({ params: { path: { spaceId: space.id } } }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: spaceKeys.all });
      navigate("/spaces");
    },
  });
  return (
    <div className="stack">
      <section className="panel">
        <h2>{t("spaces.settings")}</h2>
        <SpaceForm
          draft={draft}
          onChange={(p) => {
            setSaved(false);
            setDraft({ ...draft, ...p });
          }}
          onSubmit={() => save.mutate()}
          error={save.error}
          submitLabel={t("common.save")}
          editing
          busy={save.isPending}
        />
        {saved && <p role="status">{t("common.saved")}</p>}
      </section>
      {can(user, "space:create") && <CopySpace space={space} />}
      <section className="panel">
        <h2>{t("spaces.archiveTitle")}</h2>
        <p>{space.isActive ? t("spaces.archiveHelp") : t("spaces.archivedHelp")}</p>
        <FormError error={archive.error} fields={[]} />
        {space.isActive ? (
          <ConfirmButton question={t("spaces.archiveConfirm", { name: space.name })} onConfirm={() => archive.mutate(false)}>
            {t("spaces.archive")}
          </ConfirmButton>
        ) : (
          <button type="button" onClick={() => archive.mutate(true)}>
            {t("spaces.reactivate")}
          </button>
        )}
      </section>
      {isOwner && (
        <section className="panel">
          <h2>{t("spaces.deleteTitle")}</h2>
          <p>{t("spaces.deleteHelp")}</p>
          <FormError error={remove.error} fields={[]} />
          <ConfirmButton className="danger" question={t("spaces.deleteConfirm", { name: space.name })} onConfirm={() => remove.mutate()}>
            {t("spaces.delete")}
          </ConfirmButton>
        </section>
      )}
    </div>
  );
}
