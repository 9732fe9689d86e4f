import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import type { paths } from "../../api/schema";
import { can, useUser } from "../../app/session";
import { useI18n } from "../../i18n";
import { MemberPicker } from "../../ui/MemberPicker";
import { navigate } from "../../ui/router";
import { Field, FormError, fieldError, Modal, Select } from "../../ui/ui";
import { CopyContent } from "./CopyContent";
import { deleteContent, libraryKeys, shareContent, updateContent } from "./queries";

type Detail = paths["/api/v1/library/contents/{contentId}"]["get"]["responses"]["200"]["content"]["application/json"];
type Share = { targetId: string; targetName: string };
const VISIBILITIES = ["PRIVATE", "SHARED", "PUBLIC"] as const;

/** A content manager's tools above any content: its title, description and visibility, who it is shared with, delete. */
export default function ContentAdmin({ content, back }: { content: Detail; back: string }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const [open, setOpen] = useState<"details" | "share" | "copy" | null>(null);
  const updated = (d: Detail) => {
    qc.setQueryData(libraryKeys.content(content.id), d);
    void qc.invalidateQueries({ queryKey: libraryKeys.allContents });
    setOpen(null);
  };
  const remove = useMutation({
    mutationFn: () => deleteContent({ params: { path: { contentId: content.id } } }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: libraryKeys.allContents });
      navigate(back);
    },
  });
  const assign = useMutation({
    mutationFn: () =>
      updateContent({
        params: { path: { contentId: content.id } },
        body: { visibility: "SHARED" },
      }),
    onSuccess: updated,
  });
  return (
    <div className="inline">
      <span className="badge">{t(`library.visibility.${content.visibility}`)}</span>
      {content.visibility === "PRIVATE" && (
        <button type="button" className="small primary" disabled={assign.isPending} onClick={() => assign.mutate()}>
          {t("library.assign")}
        </button>
      )}
      <FormError error={assign.error} fields={[]} />
      {content.shares.length > 0 && <small className="muted">{t("library.sharedWithN", { n: content.shares.length })}</small>}
      <button type="button" className="small" onClick={() => setOpen("details")}>
        {t("library.editDetails")}
      </button>
      <button type="button" className="small" onClick={() => setOpen("share")}>
        {t("library.sharing")}
      </button>
      <button type="button" className="small" onClick={() => setOpen("copy")}>
        {t("library.copy.button")}
      </button>
      <button
        type="button"
        className="small danger"
        onClick={() => {
          if (window.confirm(t("library.deleteContentConfirm", { name: content.title }))) remove.mutate();
        }}
      >
        {t("library.deleteContent")}
      </button>
      <FormError error={remove.error} fields={[]} />
      <Modal open={open === "details"} onOpenChange={(o) => setOpen(o ? "details" : null)} title={t("library.editDetails")}>
        {open === "details" && <DetailsForm content={content} onSaved={updated} />}
      </Modal>
      <Modal open={open === "share"} onOpenChange={(o) => setOpen(o ? "share" : null)} title={t("library.sharing")}>
        {open === "share" && <ShareForm content={content} onSaved={updated} />}
      </Modal>
      <Modal
        open={open === "copy"}
        onOpenChange={(o) => setOpen(o ? "copy" : null)}
        title={t("library.copy.title", { title: content.title })}
      >
        {open === "copy" && <CopyContent contentId={content.id} title={content.title} />}
      </Modal>
    </div>
  );
}

function DetailsForm({ content, onSaved }: { content: Detail; onSaved: (d: Detail) => void }) {
  const { t } = useI18n();
  const id = useId();
  const [v, setV] = useState({ title: content.title, description: content.description, visibility: content.visibility });
  const save = useMutation({
    mutationFn: () => updateContent({ params: { path: { contentId: content.id } }, body: v }),
    onSuccess: onSaved,
  });
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Field
        label={t("library.contentTitle")}
        required
        value={v.title}
        onChange={(e) => setV({ ...v, title: e.target.value })}
        error={fieldError(save.error, "title", t)}
      />
      <div className="field">
        <label htmlFor={id}>{t("library.description")}</label>
        <textarea
          id={id}
          rows={4}
          value={v.description}
          onChange={(e) => setV({ ...v, description: e.target.value })}
          aria-invalid={fieldError(save.error, "description", t) ? true : undefined}
        />
      </div>
      <Select
        label={t("library.visibilityLabel")}
        value={v.visibility}
        onChange={(x) => setV({ ...v, visibility: x as Detail["visibility"] })}
        options={VISIBILITIES.map((x) => ({ value: x, label: t(`library.visibilityHelp.${x}`) }))}
      />
      <FormError error={save.error} fields={["title", "description"]} />
      <button type="submit" className="primary">
        {t("common.save")}
      </button>
    </form>
  );
}

/** shareContent replaces the whole list: members chosen here may view the content while it is SHARED, in or out of its space. */
function ShareForm({ content, onSaved }: { content: Detail; onSaved: (d: Detail) => void }) {
  const { t } = useI18n();
  const user = useUser();
  const [list, setList] = useState<Share[]>(content.shares.map((s) => ({ targetId: s.targetId, targetName: s.targetName })));
  const save = useMutation({
    mutationFn: () =>
      shareContent({
        params: { path: { contentId: content.id } },
        body: { shares: list.map((s) => ({ targetType: "USER" as const, targetId: s.targetId, level: "VIEW" as const })) },
      }),
    onSuccess: onSaved,
  });
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      {content.visibility !== "SHARED" && <p className="muted">{t("library.sharesNeedShared")}</p>}
      {list.length === 0 ? (
        <p className="muted">{t("library.noShares")}</p>
      ) : (
        <ul className="list" aria-label={t("library.sharedWith")}>
          {list.map((s) => (
            <li key={s.targetId}>
              {s.targetName}{" "}
              <button
                type="button"
                className="small"
                aria-label={t("library.unshare", { name: s.targetName })}
                onClick={() => setList(list.filter((x) => x.targetId !== s.targetId))}
              >
                {t("common.remove")}
              </button>
            </li>
          ))}
        </ul>
      )}
      {can(user, "member:read") && (
        <MemberPicker
          label={t("library.shareWith")}
          onPick={(m) => {
            if (!list.some((x) => x.targetId === m.id)) setList([...list, { targetId: m.id, targetName: m.displayName }]);
          }}
        />
      )}
      <FormError error={save.error} fields={[]} />
      <button type="submit" className="primary">
        {t("library.saveShares")}
      </button>
    </form>
  );
}
