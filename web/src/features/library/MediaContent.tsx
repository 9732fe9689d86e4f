import { useI18n } from "../../i18n";
import { MediaEditor } from "./MediaEditor";
import { type MediaType, MediaView } from "./MediaView";

/** A video, linked video, live session or document: its managers set it up and preview it; everyone else views it. */
export default function MediaContent({ contentId, type, canManage }: { contentId: string; type: MediaType; canManage: boolean }) {
  const { t } = useI18n();
  if (!canManage) return <MediaView contentId={contentId} type={type} />;
  return (
    <div className="stack">
      <MediaEditor contentId={contentId} type={type} />
      <h2>{t("media.preview")}</h2>
      <MediaView contentId={contentId} type={type} />
    </div>
  );
}
