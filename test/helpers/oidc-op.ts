import { createServer, type Server } from "node:http";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import Provider from "oidc-provider";

/** A cookie jar for one browser: the name=value pairs its responses set. */
export class Jar {
  readonly cookies = new Map<string, string>();
  take(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair = ""] = c.split(";");
      const i = pair.indexOf("=");
      const [name, value] = [pair.slice(0, i).trim(), pair.slice(i + 1)];
      if (value === "" || /max-age=0/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  return `http://127.0.0.1:${address.port}`;
}

export type OpAccount = { email?: string; email_verified?: boolean; name?: string };
export type OpClient = { client_id: string; client_secret: string; redirect_uris: string[] };

/**
 * panva's oidc-provider (a certified OpenID Provider) on a loopback port, with its development
 * login form (any password) and consent granted up front, serving the accounts in `accounts`.
 */
export async function startOp(clients: OpClient[]) {
  const server = createServer();
  const issuer = await listen(server);
  const accounts = new Map<string, OpAccount>();
  const provider = new Provider(issuer, {
    clients: clients.map((c) => ({ ...c, token_endpoint_auth_method: "client_secret_post" })),
    findAccount: async (_ctx, sub) => {
      const a = accounts.get(sub);
      return a ? { accountId: sub, claims: async () => ({ sub, ...a }) } : undefined;
    },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // The claims go into the ID token itself, as Google's and Entra's do.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600 },
    loadExistingGrant: async (ctx) => {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
  });
  server.on("request", provider.callback());
  return { issuer, accounts, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * A browser at the OP: follows the authorization URL, fills the login form with `login`, and returns
 * the URL the OP sends the browser back to (the relying party's callback).
 */
export async function loginAtOp(authorizationUrl: string, login: string, jar = new Jar()): Promise<URL> {
  let url = new URL(authorizationUrl);
  const origin = url.origin;
  for (let i = 0; i < 10; i++) {
    const res = jar.take(await fetch(url, { redirect: "manual", headers: { cookie: jar.header() } }));
    const location = res.headers.get("location");
    if (location) {
      url = new URL(location, url);
      if (url.origin !== origin) return url;
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`no form at ${url}: ${res.status} ${html.slice(0, 300)}`);
    const posted = jar.take(
      await fetch(new URL(action, url), {
        method: "POST",
        redirect: "manual",
        headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ prompt: "login", login, password: "any" }),
      }),
    );
    url = new URL(posted.headers.get("location") ?? "", url);
    if (url.origin !== origin) return url;
  }
  throw new Error("too many redirects at the OP");
}

export type Forge = (claims: Record<string, unknown>) => Promise<string>;

/**
 * A hostile provider built with jose: real discovery and JWKS (and it advertises `none` and HS256),
 * an authorization endpoint that answers at once with a code, and a token endpoint whose ID token
 * is made by `forge` from correct claims (issuer, audience, nonce, times) the test may bend.
 */
export async function startHostileOp(clientId: string) {
  const server = createServer();
  const issuer = await listen(server);
  let keys = await generateKeyPair("RS256", { extractable: true });
  let kid = "k1";
  const nonces = new Map<string, string>();
  const sign = async (claims: Record<string, unknown>, header: Record<string, unknown> = {}) =>
    new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid, ...header }).sign(keys.privateKey);
  const hostile = {
    issuer,
    /** How often the discovery document was fetched. */
    discoveries: 0,
    sign,
    forge: ((claims) => sign(claims)) as Forge,
    /** Replaces the signing key with one of a new kid (the JWKS then lists only it). */
    async rotate() {
      keys = await generateKeyPair("RS256", { extractable: true });
      kid = `k${Number(kid.slice(1)) + 1}`;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  server.on("request", async (req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    const json = (body: unknown) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === "/.well-known/openid-configuration") {
      hostile.discoveries++;
      return json({
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256", "HS256", "none"],
      });
    }
    if (url.pathname === "/jwks") return json({ keys: [{ ...(await exportJWK(keys.publicKey)), kid, alg: "RS256", use: "sig" }] });
    if (url.pathname === "/auth") {
      const code = crypto.randomUUID();
      nonces.set(code, url.searchParams.get("nonce") ?? "");
      const back = new URL(url.searchParams.get("redirect_uri") ?? "");
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }
    if (url.pathname === "/token") {
      let body = "";
      for await (const chunk of req) body += chunk;
      const code = new URLSearchParams(body).get("code") ?? "";
      const now = Math.floor(Date.now() / 1000);
      const claims = { iss: issuer, aud: clientId, sub: "hostile-sub", nonce: nonces.get(code), iat: now, exp: now + 300 };
      return json({ access_token: "at", token_type: "Bearer", expires_in: 300, id_token: await hostile.forge(claims) });
    }
    res.writeHead(404);
    res.end();
  });
  return hostile;
}
