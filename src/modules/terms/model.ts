import { t } from "elysia";
import { Enum, Id, Int, Nullable, Timestamp } from "../../platform/http/schemas";

export const TermScope = Enum(["platform", "tenant"]);
const Topic = t.String({
  minLength: 1,
  maxLength: 50,
  pattern: "^[A-Z0-9_]+$",
  error: "must be 1..50 uppercase letters, digits or underscores",
});
const Order = Int({ minimum: 0, maximum: 9999, error: "must be an integer 0..9999" });
const TtlDays = Nullable(Int({ minimum: 1, maximum: 36500, error: "must be null or an integer 1..36500" }));
const Title = t.Object({ ko: t.String({ maxLength: 1000 }), en: t.String({ maxLength: 1000 }) });
const DocumentUrl = t.Object({ ko: t.String({ maxLength: 2000 }), en: t.String({ maxLength: 2000 }) });
const Localized = t.Object({ ko: t.String(), en: t.String() });

export const Term = t.Object({
  scope: TermScope,
  topic: t.String(),
  version: Int(),
  isEssential: t.Boolean(),
  isVisible: t.Boolean(),
  order: Int(),
  title: Localized,
  documentUrl: Localized,
  consentTtlDays: Nullable(Int()),
  isActive: t.Boolean(),
  consentCount: Int(),
});
export const TermList = t.Object({ terms: t.Array(Term) });

export const CreateTermBody = t.Object({
  topic: Topic,
  isEssential: t.Optional(t.Boolean({ default: true })),
  isVisible: t.Optional(t.Boolean({ default: true })),
  order: t.Optional(Order),
  consentTtlDays: t.Optional(TtlDays),
  title: t.Optional(Title),
  documentUrl: t.Optional(DocumentUrl),
});
export const UpdateTermBody = t.Object({
  isEssential: t.Optional(t.Boolean()),
  isVisible: t.Optional(t.Boolean()),
  order: t.Optional(Order),
  consentTtlDays: t.Optional(TtlDays),
  isActive: t.Optional(t.Boolean()),
  title: t.Optional(Title),
  documentUrl: t.Optional(DocumentUrl),
});
export const SetCurrentVersionBody = t.Object({
  currentVersion: Int({ minimum: 1, maximum: 9007199254740991, error: "must be an integer >= 1" }),
});
export const TopicParams = t.Object({ topic: Id });

export const AgreementRecord = t.Object({
  scope: TermScope,
  topic: t.String(),
  version: Int(),
  isEssential: t.Boolean(),
  agreedAt: Timestamp,
  expiresAt: Nullable(Timestamp),
  withdrawnAt: Nullable(Timestamp),
  isEffective: t.Boolean(),
});
const displayFields = {
  scope: TermScope,
  topic: t.String(),
  version: Int(),
  isEssential: t.Boolean(),
  isVisible: t.Boolean(),
  order: Int(),
  title: Localized,
  documentUrl: Localized,
};
export const DisplayAgreement = t.Object(displayFields);
export const PendingAgreement = t.Object({
  ...displayFields,
  reason: Enum(["never-agreed", "new-version", "expired", "withdrawn"], {
    description: "never-agreed: no consent to the topic yet; new-version: an earlier version was agreed; expired; withdrawn",
  }),
});

export const MyAgreements = t.Object({ platformAgreements: t.Array(AgreementRecord), tenantAgreements: t.Array(AgreementRecord) });
export const PendingAgreements = t.Object({
  needConsent: t.Boolean(),
  platformAgreements: t.Array(PendingAgreement),
  tenantAgreements: t.Array(PendingAgreement),
});
export const DisplayAgreements = t.Object({
  platformAgreements: t.Array(DisplayAgreement),
  tenantAgreements: t.Array(DisplayAgreement),
});

export const ConsentBody = t.Object({
  agreements: t.Array(
    t.Object({
      scope: TermScope,
      topic: t.String({ minLength: 1, maxLength: 50 }),
      version: Int({ minimum: 1, maximum: 9007199254740991, error: "must be an integer >= 1" }),
    }),
    { minItems: 1, maxItems: 100, error: "must list 1..100 agreements" },
  ),
});
export const WithdrawBody = t.Object({ scope: TermScope, topic: t.String({ minLength: 1, maxLength: 50 }) });
export const DisplayQuery = t.Object({ tenantKey: t.Optional(t.String({ minLength: 1, maxLength: 255 })) });
