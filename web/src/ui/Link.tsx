import type { ReactNode } from "react";
import { navigate } from "./router";

/** An in-console link: a real href (open in a new tab works), a client-side navigation on a plain click. */
export function Link({ to, children }: { to: string; children: ReactNode }) {
  return (
    <a
      href={to}
      onClick={(e) => {
        if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}
