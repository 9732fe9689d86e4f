import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Uploaded files: the row is made by requestUpload (pending) and turns ready when its bytes have
 * arrived; the bytes live in `<dataDir>/files/<tenantId>/<id>`.
 */
export const files = sqliteTable(
  "files",
  {
    id: text("id").primaryKey(),
    uploaderMemberId: text("uploader_member_id").notNull(),
    fileName: text("file_name").notNull(),
    contentType: text("content_type").notNull(),
    /** The declared size; null when requestUpload left it out, then the received count once ready. */
    size: integer("size"),
    status: text("status", { enum: ["pending", "ready"] }).notNull(),
    createdAt: integer("created_at").notNull(),
    readyAt: integer("ready_at"),
  },
  // The caller's own uploads (getFile, attachment checks by uploader).
  (t) => [index("files_uploader_idx").on(t.uploaderMemberId, t.createdAt)],
);
