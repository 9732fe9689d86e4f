import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { setNonce } from "get-nonce";
import { createRoot } from "react-dom/client";
import { ApiError } from "./api/problem";
import { App } from "./app/App";
import { preloadScreen } from "./app/nav";
import { SessionProvider, startSession } from "./app/session";
import { membersListQuery } from "./features/members/queries";
import { I18nProvider } from "./i18n";
import "./styles.css";

// A 4xx is an answer, not a hiccup: retry only network failures and 5xx.
const queries = new QueryClient({
  defaultOptions: {
    queries: { retry: (n, e) => n < 2 && !(e instanceof ApiError && e.status < 500), staleTime: 10_000 },
  },
});

// The style tags Radix adds (scroll lock) carry the per-response nonce the CSP allows; no 'unsafe-inline'.
setNonce(document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? "");

const landing = window.location.pathname === "/" ? "/members" : window.location.pathname;
preloadScreen(landing);
// The members list (the usual landing screen) is asked for as soon as the session is back, while its chunk loads.
void startSession().then(({ data }) => {
  if (data?.user.permissions.includes("member:read") && landing === "/members") {
    void queries.prefetchQuery(membersListQuery(new URLSearchParams(window.location.search)));
  }
});

createRoot(document.getElementById("root") as HTMLElement).render(
  <QueryClientProvider client={queries}>
    <I18nProvider>
      <SessionProvider>
        <App />
      </SessionProvider>
    </I18nProvider>
  </QueryClientProvider>,
);
