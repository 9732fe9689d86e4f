import { DOMParser } from "@xmldom/xmldom";
import { SignedXml } from "xml-crypto";

/**
 * Verification of an IdP's SAML Response (docs/rules/sign-in.md#saml-sign-in). Only the XML that
 * a verified signature covers (xml-crypto's getSignedReferences) is read for claims, so a wrapped
 * or injected Assertion is never trusted.
 */

const NS = {
  samlp: "urn:oasis:names:tc:SAML:2.0:protocol",
  saml: "urn:oasis:names:tc:SAML:2.0:assertion",
  ds: "http://www.w3.org/2000/09/xmldsig#",
};
const SIGNATURE_ALGORITHMS = new Set([
  "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
  "http://www.w3.org/2001/04/xmldsig-more#rsa-sha512",
]);
const DIGEST_ALGORITHMS = new Set(["http://www.w3.org/2001/04/xmlenc#sha256", "http://www.w3.org/2001/04/xmlenc#sha512"]);
const SUCCESS = "urn:oasis:names:tc:SAML:2.0:status:Success";
const BEARER = "urn:oasis:names:tc:SAML:2.0:cm:bearer";
export const CLOCK_SKEW_MS = 2 * 60 * 1000;

/** A failed check; `reason` is for the log line only. */
export class SamlCheckFailed extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}
const fail = (reason: string): never => {
  throw new SamlCheckFailed(reason);
};

export type SamlExpectations = {
  certBase64: string;
  idpEntityId: string;
  spEntityId: string;
  spAcsUrl: string;
  requestId: string;
  now: number;
};

export type SamlClaims = {
  assertionId: string;
  nameId: string;
  attributes: Map<string, string[]>;
  /** Until when the assertion id must be remembered against replay. */
  keepUntil: number;
};

function parse(xml: string): Document {
  let error: string | null = null;
  const doc = new DOMParser({
    errorHandler: {
      warning: () => {},
      error: (m: string) => {
        error = m;
      },
      fatalError: (m: string) => {
        error = m;
      },
    },
  }).parseFromString(xml, "text/xml");
  if (error || !doc?.documentElement) fail(`malformed XML: ${error ?? "no root"}`);
  return doc;
}

const is = (el: Element | null | undefined, ns: string, local: string) => !!el && el.namespaceURI === ns && el.localName === local;

function childElements(el: Element, ns: string, local: string): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && is(n as Element, ns, local)) out.push(n as Element);
  }
  return out;
}
const child = (el: Element | null | undefined, ns: string, local: string) => (el ? (childElements(el, ns, local)[0] ?? null) : null);
const textOf = (el: Element | null) => (el?.textContent ?? "").trim();
const attr = (el: Element | null, name: string) => (el?.hasAttribute(name) ? el.getAttribute(name) : null);

function time(value: string | null, what: string): number | null {
  if (value === null) return null;
  const t = Date.parse(value);
  if (Number.isNaN(t)) fail(`bad ${what}`);
  return t;
}

/** Verifies one ds:Signature that must sign `parent` (by ID) and returns the signed XML it covers. */
function verifySignature(xml: string, signature: Element, parent: Element, pem: string): string {
  const id = attr(parent, "ID");
  if (!id) fail(`signed ${parent.localName} has no ID`);
  const sig = new SignedXml({ publicCert: pem, getCertFromKeyInfo: () => null });
  sig.loadSignature(signature);
  if (!sig.signatureAlgorithm || !SIGNATURE_ALGORITHMS.has(sig.signatureAlgorithm)) fail("weak or unknown signature algorithm");
  let valid = false;
  try {
    valid = sig.checkSignature(xml);
  } catch (e) {
    fail(`signature check threw: ${(e as Error).message}`);
  }
  if (!valid) fail("signature does not verify");
  const refs = sig.getReferences();
  if (refs.length !== 1) fail("signature must have exactly one reference");
  const ref = refs[0]!;
  if (ref.uri !== `#${id}`) fail("signature does not reference its parent element");
  if (!DIGEST_ALGORITHMS.has(ref.digestAlgorithm)) fail("weak or unknown digest algorithm");
  const signed = sig.getSignedReferences();
  if (signed.length !== 1) fail("signature must cover exactly one element");
  return signed[0]!;
}

/** The signed element, re-parsed from what the signature covers; it must be the expected one. */
function signedElement(signedXml: string, ns: string, local: string, id: string): Element {
  const root = parse(signedXml).documentElement;
  if (!is(root, ns, local) || attr(root, "ID") !== id) fail(`signed reference is not the ${local}`);
  return root;
}

export function verifySamlResponse(xml: string, expect: SamlExpectations): SamlClaims {
  const { now } = expect;
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) fail("DTDs are not accepted");
  const doc = parse(xml);
  const root = doc.documentElement;
  if (!is(root, NS.samlp, "Response")) fail("not a samlp:Response");
  // An IdP error Response has no Assertion: its (unsigned) status can only refuse, and the log shows why.
  const statusEl = child(root, NS.samlp, "Status");
  const topStatus = attr(child(statusEl, NS.samlp, "StatusCode"), "Value");
  if (topStatus !== SUCCESS) {
    const sub = attr(child(child(statusEl, NS.samlp, "StatusCode"), NS.samlp, "StatusCode"), "Value");
    const message = textOf(child(statusEl, NS.samlp, "StatusMessage"));
    fail(`IdP answered status ${topStatus ?? "missing"}${sub ? ` (${sub})` : ""}${message ? `: ${message.slice(0, 500)}` : ""}`);
  }
  if (doc.getElementsByTagNameNS(NS.saml, "EncryptedAssertion").length > 0) fail("encrypted assertions are not supported");
  const assertions = doc.getElementsByTagNameNS(NS.saml, "Assertion");
  if (assertions.length !== 1) fail("exactly one Assertion is required");
  const assertion = assertions[0]!;
  if (assertion.parentNode !== root) fail("the Assertion must be a child of the Response");

  // Signatures: on the Response, on the Assertion, or both; none anywhere else, at most one each.
  const signatures = Array.from(doc.getElementsByTagNameNS(NS.ds, "Signature"));
  if (signatures.length === 0) fail("unsigned response");
  const onResponse = signatures.filter((s) => s.parentNode === root);
  const onAssertion = signatures.filter((s) => s.parentNode === assertion);
  if (onResponse.length + onAssertion.length !== signatures.length || onResponse.length > 1 || onAssertion.length > 1) {
    fail("unexpected signature placement");
  }
  const pem = `-----BEGIN CERTIFICATE-----\n${expect.certBase64.match(/.{1,64}/g)?.join("\n")}\n-----END CERTIFICATE-----\n`;
  const responseId = attr(root, "ID") ?? "";
  const assertionId = attr(assertion, "ID") ?? fail("Assertion has no ID");

  let response: Element = root;
  let signedAssertion: Element | null = null;
  if (onResponse[0]) {
    response = signedElement(verifySignature(xml, onResponse[0], root, pem), NS.samlp, "Response", responseId);
    const inner = childElements(response, NS.saml, "Assertion");
    if (inner.length !== 1 || attr(inner[0]!, "ID") !== assertionId) fail("signed Response does not hold the Assertion");
    signedAssertion = inner[0]!;
  }
  if (onAssertion[0]) {
    signedAssertion = signedElement(verifySignature(xml, onAssertion[0], assertion, pem), NS.saml, "Assertion", assertionId);
  }
  if (!signedAssertion) return fail("assertion is not covered by a signature");
  const a: Element = signedAssertion;

  // The Response envelope (signed, or as sent when only the Assertion is signed).
  const destination = attr(response, "Destination");
  if (destination !== null && destination !== expect.spAcsUrl) fail("Destination mismatch");
  const responseInResponseTo = attr(response, "InResponseTo");
  if (responseInResponseTo !== null && responseInResponseTo !== expect.requestId) fail("Response InResponseTo mismatch");
  const responseIssuer = child(response, NS.saml, "Issuer");
  if (responseIssuer && textOf(responseIssuer) !== expect.idpEntityId) fail("Response Issuer mismatch");
  const status = attr(child(child(response, NS.samlp, "Status"), NS.samlp, "StatusCode"), "Value");
  if (status !== SUCCESS) fail(`status ${status ?? "missing"}`);

  // The Assertion.
  if (attr(a, "Version") !== "2.0") fail("Assertion version");
  if (textOf(child(a, NS.saml, "Issuer")) !== expect.idpEntityId) fail("Assertion Issuer mismatch");
  const subject = child(a, NS.saml, "Subject");
  const nameId = textOf(child(subject, NS.saml, "NameID"));
  if (!nameId) fail("no NameID");
  const confirmations = subject ? childElements(subject, NS.saml, "SubjectConfirmation").filter((c) => attr(c, "Method") === BEARER) : [];
  const confirmed = confirmations.some((c) => {
    const data = child(c, NS.saml, "SubjectConfirmationData");
    const notOnOrAfter = time(attr(data, "NotOnOrAfter"), "SubjectConfirmationData NotOnOrAfter");
    const notBefore = time(attr(data, "NotBefore"), "SubjectConfirmationData NotBefore");
    return (
      !!data &&
      attr(data, "Recipient") === expect.spAcsUrl &&
      attr(data, "InResponseTo") === expect.requestId &&
      notOnOrAfter !== null &&
      now < notOnOrAfter + CLOCK_SKEW_MS &&
      (notBefore === null || now >= notBefore - CLOCK_SKEW_MS)
    );
  });
  if (!confirmed) fail("no valid bearer SubjectConfirmation (Recipient, InResponseTo, time)");

  const conditions = child(a, NS.saml, "Conditions");
  if (!conditions) return fail("no Conditions");
  const notBefore = time(attr(conditions, "NotBefore"), "NotBefore");
  const notOnOrAfter = time(attr(conditions, "NotOnOrAfter"), "NotOnOrAfter");
  if (notBefore !== null && now < notBefore - CLOCK_SKEW_MS) fail("assertion not yet valid");
  if (notOnOrAfter !== null && now >= notOnOrAfter + CLOCK_SKEW_MS) fail("assertion expired");
  const restrictions = childElements(conditions, NS.saml, "AudienceRestriction");
  if (restrictions.length === 0) fail("no AudienceRestriction");
  for (const r of restrictions) {
    if (!childElements(r, NS.saml, "Audience").some((aud) => textOf(aud) === expect.spEntityId)) fail("Audience mismatch");
  }

  const attributes = new Map<string, string[]>();
  for (const statement of childElements(a, NS.saml, "AttributeStatement")) {
    for (const at of childElements(statement, NS.saml, "Attribute")) {
      const name = attr(at, "Name");
      if (!name) continue;
      attributes.set(name, [...(attributes.get(name) ?? []), ...childElements(at, NS.saml, "AttributeValue").map(textOf)]);
    }
  }
  const keepUntil = Math.max(notOnOrAfter ?? 0, now) + CLOCK_SKEW_MS + 24 * 60 * 60 * 1000;
  return { assertionId, nameId, attributes, keepUntil };
}
