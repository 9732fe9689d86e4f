// Why a browser sign-in was refused: the error a redirect back to the login page carries.
export type RefusalCode = "SSO_FAILED" | "SSO_DISABLED" | "NOT_A_MEMBER" | "MEMBER_INACTIVE" | "SSO_ONLY";
