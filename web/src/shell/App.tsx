import { useState } from "react";
import { useI18n } from "../i18n";
import { ChangePassword } from "./ChangePassword";
import { Layout } from "./Layout";
import { lastTenantKey, useSession } from "./session";
import { Field, Loading } from "./ui";

/** Signed in → the shell; signed out → the way to the school's hosted sign-in page. */
export function App() {
  const session = useSession();
  if (session.status === "loading") return <Loading />;
  if (session.status === "signedIn") return session.user.mustChangePassword ? <ChangePassword /> : <Layout />;
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
