import { useI18n } from "../../i18n";
import { Field, fieldError } from "../../ui/ui";
import type { Draft } from "./Preview";

/** The external links (at most 4, each labelled in both languages) and the external feed's title, or no feed. */
export function LinksEditor({ draft, set, error }: { draft: Draft; set: (patch: Partial<Draft>) => void; error: unknown }) {
  const { t } = useI18n();
  const links = draft.externalLinks;
  const editLink = (i: number, patch: Partial<(typeof links)[number]>) =>
    set({ externalLinks: links.map((l, j) => (j === i ? { ...l, ...patch } : l)) });
  const feed = draft.externalFeed;
  return (
    <>
      <h2>{t("loginPage.sectionLinks")}</h2>
      <label className="check">
        <input type="checkbox" checked={draft.externalLinksEnabled} onChange={(e) => set({ externalLinksEnabled: e.target.checked })} />
        {t("loginPage.linksEnabled")}
      </label>
      {links.map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the links have no id; a link is its position in the list
        <fieldset key={i} className="link-row">
          <legend>{t("loginPage.linkN", { n: i + 1 })}</legend>
          <Field
            label={t("loginPage.linkLabelKo")}
            maxLength={255}
            value={l.labelKo}
            onChange={(e) => editLink(i, { labelKo: e.target.value })}
            error={fieldError(error, `externalLinks[${i}].labelKo`, t)}
          />
          <Field
            label={t("loginPage.linkLabelEn")}
            maxLength={255}
            value={l.labelEn}
            onChange={(e) => editLink(i, { labelEn: e.target.value })}
            error={fieldError(error, `externalLinks[${i}].labelEn`, t)}
          />
          <Field
            label={t("loginPage.linkUrl")}
            inputMode="url"
            required
            maxLength={1000}
            value={l.url}
            onChange={(e) => editLink(i, { url: e.target.value })}
            error={fieldError(error, `externalLinks[${i}].url`, t)}
          />
          <button type="button" className="small" onClick={() => set({ externalLinks: links.filter((_, j) => j !== i) })}>
            {t("loginPage.removeLink", { n: i + 1 })}
          </button>
        </fieldset>
      ))}
      <button
        type="button"
        disabled={links.length >= 4}
        onClick={() => set({ externalLinks: [...links, { labelKo: "", labelEn: "", url: "" }] })}
      >
        {t("loginPage.addLink")}
      </button>
      <h2>{t("loginPage.sectionFeed")}</h2>
      <label className="check">
        <input
          type="checkbox"
          checked={feed !== null}
          onChange={(e) => set({ externalFeed: e.target.checked ? { titleKo: "", titleEn: "" } : null })}
        />
        {t("loginPage.feedEnabled")}
      </label>
      <p className="muted">{t("loginPage.feedHint")}</p>
      {feed && (
        <>
          <Field
            label={t("loginPage.feedTitleKo")}
            maxLength={255}
            value={feed.titleKo}
            onChange={(e) => set({ externalFeed: { ...feed, titleKo: e.target.value } })}
            error={fieldError(error, "externalFeed.titleKo", t)}
          />
          <Field
            label={t("loginPage.feedTitleEn")}
            maxLength={255}
            value={feed.titleEn}
            onChange={(e) => set({ externalFeed: { ...feed, titleEn: e.target.value } })}
            error={fieldError(error, "externalFeed.titleEn", t)}
          />
        </>
      )}
    </>
  );
}
