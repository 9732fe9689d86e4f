import { Elysia } from "elysia";
import { Problem } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import { getHostedLoginPage } from "../login-page/public";
import { errorPage, forgotPasswordPage, invitationPage, joinPage, type Lang, loginPage, pickLang, spaceJoinPage } from "./pages";

type Ctx = {
  params: { tenantKey: string };
  query: Record<string, string | undefined>;
  request: Request;
  set: { status?: number | string };
};

/**
 * The hosted HTML pages (docs/rules/runtime.md#hosted-pages) behind the links the server sends: sign-in, join-code, space
 * join-code and invitation. Not under /api/v1 and not API operations, so they carry no `detail` and stay out of
 * the OpenAPI document.
 */
export function hostedPagesModule(rt: Runtime) {
  const serve = (render: (page: ReturnType<typeof getHostedLoginPage>, key: string, lang: Lang, query: Ctx["query"]) => Response) => {
    return ({ params, query, request, set }: Ctx) => {
      const lang = pickLang(request.headers.get("accept-language"), query.lang);
      let response: Response;
      try {
        response = render(getHostedLoginPage(rt, params.tenantKey), params.tenantKey, lang, query);
      } catch (e) {
        if (!(e instanceof Problem) || e.status !== 404) throw e;
        response = errorPage(lang, 404);
      }
      set.status = response.status; // for the request log line
      return response;
    };
  };
  return new Elysia({ name: "module.hosted-pages" })
    .get(
      "/t/:tenantKey/login",
      serve((page, key, lang) => loginPage(page, key, lang)),
    )
    .get(
      "/t/:tenantKey/forgot-password",
      serve((page, key, lang) => forgotPasswordPage(page, key, lang)),
    )
    .get(
      "/t/:tenantKey/join",
      serve((page, key, lang, q) => joinPage(page, key, q.code ?? "", lang)),
    )
    .get(
      "/t/:tenantKey/spaces/join",
      serve((page, key, lang, q) => spaceJoinPage(page, key, q.code ?? "", lang)),
    )
    .get(
      "/t/:tenantKey/invitation",
      serve((page, key, lang, q) => (q.token ? invitationPage(page, key, q.token, lang) : errorPage(lang, 400))),
    );
}
