import { useI18n } from "../../i18n";
import { Field, fieldError } from "../../ui/ui";

/** Every field createTerm and updateTerm share, as the form holds them (numbers as typed text). */
export type TermForm = {
  titleKo: string;
  titleEn: string;
  urlKo: string;
  urlEn: string;
  order: string;
  consentTtlDays: string;
  isEssential: boolean;
  isVisible: boolean;
};

export const EMPTY_TERM: TermForm = {
  titleKo: "",
  titleEn: "",
  urlKo: "",
  urlEn: "",
  order: "0",
  consentTtlDays: "",
  isEssential: true,
  isVisible: true,
};

type TermLike = {
  title: { ko: string; en: string };
  documentUrl: { ko: string; en: string };
  order: number;
  consentTtlDays: number | null;
  isEssential: boolean;
  isVisible: boolean;
};

export const termForm = (x: TermLike): TermForm => ({
  titleKo: x.title.ko,
  titleEn: x.title.en,
  urlKo: x.documentUrl.ko,
  urlEn: x.documentUrl.en,
  order: String(x.order),
  consentTtlDays: x.consentTtlDays === null ? "" : String(x.consentTtlDays),
  isEssential: x.isEssential,
  isVisible: x.isVisible,
});

/** The request body of the form: an empty consent lifetime means consent never expires (null). */
export const termBody = (f: TermForm) => ({
  title: { ko: f.titleKo, en: f.titleEn },
  documentUrl: { ko: f.urlKo, en: f.urlEn },
  order: Number(f.order),
  consentTtlDays: f.consentTtlDays.trim() === "" ? null : Number(f.consentTtlDays),
  isEssential: f.isEssential,
  isVisible: f.isVisible,
});

export const TERM_FIELDS = ["title", "documentUrl", "order", "consentTtlDays", "isEssential", "isVisible"];

/** Titles, document URLs (Korean and English), display order, consent lifetime, required and shown. */
export function TermFields({ form, onChange, error }: { form: TermForm; onChange: (f: TermForm) => void; error: unknown }) {
  const { t } = useI18n();
  const text = (k: "titleKo" | "titleEn" | "urlKo" | "urlEn", field: string, label: string, type = "text") => (
    <Field
      label={label}
      type={type}
      maxLength={k.startsWith("url") ? 2000 : 1000}
      value={form[k]}
      onChange={(e) => onChange({ ...form, [k]: e.target.value })}
      error={fieldError(error, field, t)}
    />
  );
  return (
    <>
      {text("titleKo", "title.ko", t("terms.titleKo"))}
      {text("titleEn", "title.en", t("terms.titleEn"))}
      {text("urlKo", "documentUrl.ko", t("terms.urlKo"), "url")}
      {text("urlEn", "documentUrl.en", t("terms.urlEn"), "url")}
      <Field
        label={t("terms.order")}
        type="number"
        min={0}
        max={9999}
        required
        value={form.order}
        onChange={(e) => onChange({ ...form, order: e.target.value })}
        error={fieldError(error, "order", t)}
      />
      <Field
        label={t("terms.ttl")}
        hint={t("terms.ttlHint")}
        type="number"
        min={1}
        max={36500}
        value={form.consentTtlDays}
        onChange={(e) => onChange({ ...form, consentTtlDays: e.target.value })}
        error={fieldError(error, "consentTtlDays", t)}
      />
      <label className="check">
        <input type="checkbox" checked={form.isEssential} onChange={(e) => onChange({ ...form, isEssential: e.target.checked })} />
        {t("terms.essential")}
      </label>
      <label className="check">
        <input type="checkbox" checked={form.isVisible} onChange={(e) => onChange({ ...form, isVisible: e.target.checked })} />
        {t("terms.visible")}
      </label>
    </>
  );
}
