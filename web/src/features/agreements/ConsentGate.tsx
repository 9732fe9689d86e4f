import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { LanguageSelect, SignOutButton } from "../../app/SessionControls";
import { useSession } from "../../app/session";
import { useI18n } from "../../i18n";
import { FormError, Loading } from "../../ui/ui";
import { consentAgreements, consentBody, usePending } from "./queries";
import { keyOf, TermChoices } from "./TermChoices";

/** After sign-in, while a required term waits for the member's consent (needsAgreementConsent): agree before anything else. */
export default function ConsentGate() {
  const { t } = useI18n();
  const { reload } = useSession();
  const pending = usePending();
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [missing, setMissing] = useState(false);
  const items = pending.data?.items ?? [];
  const consent = useMutation({
    mutationFn: () => consentAgreements({ body: consentBody(items.filter((a) => chosen.has(keyOf(a)))) }),
    onSuccess: () => void reload(),
  });
  return (
    <main id="main" className="signed-out">
      <LanguageSelect />
      <h1>{t("agreements.gateTitle")}</h1>
      <p>{t("agreements.gateHint")}</p>
      {!pending.data ? (
        <Loading />
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const ready = items.every((a) => !a.isEssential || chosen.has(keyOf(a)));
            setMissing(!ready);
            if (ready) consent.mutate();
          }}
        >
          <TermChoices items={items} chosen={chosen} onChange={setChosen} />
          {missing && (
            <p role="alert" className="error">
              {t("agreements.mustAll")}
            </p>
          )}
          <FormError error={consent.error} fields={[]} />
          <div className="inline">
            <button type="submit" className="primary" disabled={consent.isPending}>
              {t("agreements.agree")}
            </button>
            <SignOutButton />
          </div>
        </form>
      )}
    </main>
  );
}
