// The parts of oidc-provider (which ships no types) that the test OP uses.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  type Grant = { addOIDCScope(scope: string): void; save(): Promise<string> };
  type Ctx = {
    oidc: {
      provider: { Grant: new (init: { clientId: string; accountId: string }) => Grant };
      client?: { clientId: string };
      session?: { accountId?: string };
    };
  };
  type Account = { accountId: string; claims(): Promise<Record<string, unknown>> };
  export default class Provider {
    constructor(
      issuer: string,
      config: {
        clients: Record<string, unknown>[];
        findAccount(ctx: Ctx, sub: string): Promise<Account | undefined>;
        claims?: Record<string, string[]>;
        conformIdTokenClaims?: boolean;
        pkce?: { required(): boolean };
        ttl?: Record<string, number>;
        loadExistingGrant?(ctx: Ctx): Promise<Grant | undefined>;
      },
    );
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
