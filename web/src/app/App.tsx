import { lazy, Suspense, useState } from "react";
import { useI18n } from "../i18n";
import { Field, Loading } from "../ui/ui";
import { ChangePassword } from "./ChangePassword";
import { Layout } from "./Layout";
import { lastTenantKey, useSession } from "./session";

// Its own chunk: most sign-ins never see it.
const ConsentGate = lazy(() => import("../features/agreements/ConsentGate"));

/** Signed in → a new password, then consent to required terms, then the shell; signed out → the way to the school's hosted sign-in page. */
export function App() {
  const session = useSession();
  if (session.status === "loading") return <Loading />;
  if (session.status === "signedIn") {
    if (session.user.mustChangePassword) return <ChangePassword />;
    // A required term waiting for consent comes before the console (the server leaves this to the client: docs/rules/sign-in.md#client-flags).
    if (session.user.needsAgreementConsent)
      return (
        <Suspense fallback={<Loading />}>
          <ConsentGate />
        </Suspense>
      );
    return <Layout />;
  }
  return <SignedOut />;
}

function SignedOut() {
  const { t } = useI18n();
  const [key, setKey] = useState(lastTenantKey() ?? "");
  return (
    <main id="main" className="signed-out">
      <h1>{t("signedOut.title")}</h1>
      <p>{t("signedOut.hint")}</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (key) window.location.assign(`/t/${encodeURIComponent(key)}/login`);
        }}
      >
        <Field label={t("signedOut.tenantKey")} value={key} onChange={(e) => setKey(e.target.value)} required />
        <button type="submit">{t("signedOut.go")}</button>
      </form>
    </main>
  );
}
