import { t } from "elysia";
import { Enum, Id, Int, Nullable, Timestamp } from "../../platform/http/schemas";

export const FileStatus = Enum(["pending", "ready"]);

/** requestUpload: fileName 1..500, contentType 1..200, size an integer 0..1073741824 (optional). */
export const RequestUploadBody = t.Object({
  fileName: t.String({ minLength: 1, maxLength: 500, error: "must be 1..500 characters" }),
  contentType: t.String({ minLength: 1, maxLength: 200, error: "must be 1..200 characters" }),
  size: t.Optional(Int({ minimum: 0, maximum: 1_073_741_824, error: "must be an integer 0..1073741824" })),
});

export const UploadTicket = t.Object({
  fileId: t.String(),
  uploadUrl: t.String({ description: "PUT the bytes here with the declared Content-Type; valid 15 minutes, once" }),
  contentType: t.String(),
});

/** `File` (docs/rules/files.md#file-records). `size` is null only while a file requested without a size is pending. */
export const FileRecord = t.Object({
  fileId: t.String(),
  fileName: t.String(),
  contentType: t.String(),
  size: Nullable(Int()),
  status: FileStatus,
  createdAt: Timestamp,
});

/** An Attachment: a ready file as a record shows it, with a download URL for this reader. */
export const Attachment = t.Object({
  fileId: t.String(),
  name: t.String(),
  contentType: t.String(),
  size: Int(),
  url: Nullable(t.String()),
  preview: t.Object({
    status: t.Literal("none"),
    pdfUrl: Nullable(t.String()),
    pageCount: Nullable(Int()),
    reason: Nullable(t.String()),
  }),
});

export const FileIdParams = t.Object({ fileId: Id });

/** A missing token is a 401 like a bad one (checked by the service), not a 400. */
export const SignedUrlQuery = t.Object({
  token: t.Optional(t.String({ description: "The signed token of the emitted URL" })),
});
