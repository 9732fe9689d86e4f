import { t } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { streamBodiesOf } from "../../platform/http/body";
import { apiModule, route } from "../../platform/http/route";
import type { Runtime } from "../../platform/runtime";
import { FileIdParams, FileRecord, RequestUploadBody, SignedUrlQuery, UploadTicket } from "./model";
import { downloadFileContent, getFile, requestUpload, uploadFileContent } from "./service";

export { Attachment } from "./model";

/** Matched on the whole URL: no `new URL()` per request for the one path that needs it (docs/rules/performance.md#per-request-work). */
const UPLOAD_URL = /^[a-z]+:\/\/[^/]+\/api\/v1\/files\/[^/?#]+\/content(?:[?#]|$)/;

/**
 * A large upload or download outlasts the request timeout: uploads are bounded by their stall timeout
 * instead (docs/deploying.md#timeouts). Set by the handler, before the bytes are read or sent.
 */
function noRequestTimeout(rt: Runtime, request: Request) {
  rt.server()?.timeout(request, 0);
}

export function filesModule(rt: Runtime) {
  // An upload's bytes reach the service as a stream whatever their type: the global body parser reads
  // JSON and form bodies up to 4 MiB, and Elysia's own parsers text and octet-stream bodies whole.
  streamBodiesOf("PUT", UPLOAD_URL);
  return apiModule("module.files")
    .use(authPlugin(rt))
    .post("/files", ({ actor, body, status }) => status(201, requestUpload(rt, actor, body)), {
      ...route("requestUpload", "files", "session", {
        summary: "Request a file upload",
        description: "Creates a pending file record and answers the `uploadUrl` (signed, 15 min, one use) to PUT the bytes to.",
      }),
      body: RequestUploadBody,
      response: { 201: UploadTicket },
    })
    .put(
      "/files/:fileId/content",
      ({ params, query, request }) => {
        noRequestTimeout(rt, request);
        return uploadFileContent(rt, params.fileId, query.token, request, request.headers.get("content-type"));
      },
      {
        ...route("uploadFileContent", "files", "signedUrl"),
        params: FileIdParams,
        query: SignedUrlQuery,
        detail: {
          ...route("uploadFileContent", "files", "signedUrl", {
            summary: "Upload a file's bytes",
            description:
              "The target of `uploadUrl`: the raw bytes, exactly the declared size with the declared `Content-Type`. The file becomes `ready`.",
            errors: [
              "400 `VALIDATION_FAILED` when the size or content type differs from the request",
              "404 `NOT_FOUND` for an unknown file",
              "409 `INVALID_STATE` when the bytes were already uploaded",
            ],
          }).detail,
          requestBody: {
            required: true,
            description: "The raw bytes: exactly the declared size, with the declared contentType as Content-Type",
            content: { "*/*": { schema: { type: "string", format: "binary" } } },
          },
        },
        response: { 200: FileRecord },
      },
    )
    .get("/files/:fileId", ({ actor, params }) => getFile(actor, params.fileId), {
      ...route("getFile", "files", "session", {
        summary: "Get a file's metadata",
        description: "Name, type, size and upload status of a file: for its uploader, or a caller who can see a record that attaches it.",
        errors: ["404 `NOT_FOUND` for an unknown file or one the caller may not see"],
      }),
      params: FileIdParams,
      response: { 200: FileRecord },
    })
    .get(
      "/files/:fileId/content",
      ({ params, query, request }) => {
        noRequestTimeout(rt, request);
        return downloadFileContent(rt, params.fileId, query.token, request.headers.get("range"));
      },
      {
        ...route("downloadFileContent", "files", "signedUrl"),
        params: FileIdParams,
        query: SignedUrlQuery,
        detail: {
          ...route("downloadFileContent", "files", "signedUrl", {
            summary: "Download a file",
            description:
              "The target of every emitted file URL (signed, 1 h): the bytes as an attachment with the file's name and type, streamed; one `Range: bytes=…` gets 206 with those bytes.",
            errors: [
              "403 `FORBIDDEN` for a post's file while downloads are off for a reader who is not ADMIN",
              "404 `NOT_FOUND` for an unknown file",
            ],
          }).detail,
          "x-response-media": "application/octet-stream",
        },
        response: {
          200: t.String({ format: "binary", description: "The file's bytes, as an attachment with its name and type" }),
          206: t.String({
            format: "binary",
            description: "The bytes of the one range asked for with `Range: bytes=…`, with Content-Range",
          }),
          416: t.Null({ description: "The range starts past the end; Content-Range names the size" }),
        },
      },
    );
}
