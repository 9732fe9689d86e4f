import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { paths } from "../../api/schema";
import { useI18n } from "../../i18n";
import { Field, FormError, fieldError, Modal } from "../../ui/ui";
import { createTerm, setCurrentTermVersion, termKeys, updateTerm } from "./queries";
import { TERM_FIELDS, TermFields, termBody, termForm } from "./TermFields";

export type Term = paths["/api/v1/terms"]["get"]["responses"]["200"]["content"]["application/json"]["terms"][number];
type TermList = { terms: Term[] };

/**
 * One of the school's topics: edit its current version in place (updateTerm), publish the form as a
 * new version that becomes current (createTerm on the topic), or make another version current (setCurrentTermVersion).
 */
export function TermDialog({ term, onClose }: { term: Term; onClose: () => void }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const [form, setForm] = useState(() => termForm(term));
  const [isActive, setIsActive] = useState(term.isActive);
  const [version, setVersion] = useState(String(term.version));
  const [done, setDone] = useState("");
  // A save, a new version or a switch changes the current version: the form follows it.
  useEffect(() => {
    setForm(termForm(term));
    setIsActive(term.isActive);
    setVersion(String(term.version));
  }, [term]);
  const settled = (message: string) => (data: TermList) => {
    qc.setQueryData(termKeys.all, data);
    setDone(message);
  };
  const path = { params: { path: { topic: term.topic } } };
  const update = useMutation({
    mutationFn: () => updateTerm({ ...path, body: { ...termBody(form), isActive } }),
    onSuccess: settled(t("common.saved")),
  });
  const publish = useMutation({
    mutationFn: () => createTerm({ body: { topic: term.topic, ...termBody(form) } }),
    onSuccess: settled(t("terms.newVersionDone")),
  });
  const select = useMutation({
    mutationFn: () => setCurrentTermVersion({ ...path, body: { currentVersion: Number(version) } }),
    onSuccess: settled(t("terms.currentSet")),
  });
  const editError = update.error ?? publish.error;
  const reset = () => {
    update.reset();
    publish.reset();
    select.reset();
    setDone("");
  };
  return (
    <Modal open onOpenChange={(o) => !o && onClose()} title={t("terms.editTitle", { topic: term.topic })}>
      <dl className="facts">
        <dt>{t("terms.currentVersion")}</dt>
        <dd data-testid="term-version">{term.version}</dd>
        <dt>{t("terms.consents")}</dt>
        <dd>{t("terms.consentCount", { count: term.consentCount, version: term.version })}</dd>
      </dl>
      {done && <p role="status">{done}</p>}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          reset();
          update.mutate();
        }}
      >
        <TermFields form={form} onChange={setForm} error={editError} />
        <label className="check">
          <input type="checkbox" checked={isActive} onChange={(e) => setIsActive(e.target.checked)} />
          {t("terms.active")}
        </label>
        <FormError error={editError} fields={TERM_FIELDS} />
        <div className="actions">
          <button type="submit" className="primary">
            {t("terms.saveVersion", { version: term.version })}
          </button>
          <button
            type="button"
            onClick={() => {
              reset();
              publish.mutate();
            }}
          >
            {t("terms.publishNew")}
          </button>
        </div>
      </form>
      <h3>{t("terms.setCurrent")}</h3>
      <form
        className="inline"
        onSubmit={(e) => {
          e.preventDefault();
          reset();
          select.mutate();
        }}
      >
        <Field
          label={t("terms.version")}
          hint={t("terms.versionHint")}
          type="number"
          min={1}
          required
          value={version}
          onChange={(e) => setVersion(e.target.value)}
          error={fieldError(select.error, "currentVersion", t)}
        />
        <button type="submit">{t("terms.makeCurrent")}</button>
      </form>
      <FormError error={select.error} fields={["currentVersion"]} />
    </Modal>
  );
}
