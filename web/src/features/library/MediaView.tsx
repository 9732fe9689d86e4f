import type { paths } from "../../api/schema";
import { useI18n } from "../../i18n";
import { formatDate, Loading } from "../../ui/ui";
import { useContentInfo } from "./queries";

type Info = NonNullable<
  paths["/api/v1/library/contents/{contentId}/info"]["get"]["responses"]["200"]["content"]["application/json"]["info"]
>;
type Video = Extract<Info, { renditions: unknown }>;
type UrlVideo = Extract<Info, { videoKey: unknown }>;
type Live = Extract<Info, { joinUrl: unknown }>;
type Doc = Extract<Info, { fileId: unknown }>;
export type MediaType = "VIDEO" | "URL_VIDEO" | "LIVE" | "DOCUMENT";

/** What a learner (and the teacher, as a preview) sees of a media content: the player, the link, the session or the download. */
export function MediaView({ contentId, type }: { contentId: string; type: MediaType }) {
  const { t } = useI18n();
  const info = useContentInfo(contentId);
  if (!info.data) return <Loading />;
  const i = info.data.info;
  if (!i) return <p className="muted">{t("media.notReady")}</p>;
  return (
    <section className="panel" aria-label={t("media.viewer")}>
      {type === "VIDEO" ? (
        <VideoPlayer info={i as Video} />
      ) : type === "URL_VIDEO" ? (
        <UrlVideoLink info={i as UrlVideo} />
      ) : type === "LIVE" ? (
        <LiveSession info={i as Live} />
      ) : (
        <DocumentDownload info={i as Doc} />
      )}
    </section>
  );
}

function VideoPlayer({ info }: { info: Video }) {
  const { t } = useI18n();
  const src = info.renditions[0]?.url ?? info.hlsUrl;
  if (info.status !== "ready" || !src) return <p role="status">{t("media.processing")}</p>;
  return (
    <div className="stack">
      {/* preload="none": nothing is fetched until the learner presses play. */}
      <video className="player" controls preload="none" src={src} poster={info.thumbnailUrl ?? undefined} aria-label={t("media.video")}>
        <track kind="captions" />
      </video>
      {info.durationSec !== null && <p className="muted">{t("media.duration", { n: Math.round(info.durationSec / 60) })}</p>}
    </div>
  );
}

function UrlVideoLink({ info }: { info: UrlVideo }) {
  const { t } = useI18n();
  return (
    <p>
      <a href={info.url} target="_blank" rel="noopener noreferrer">
        {t("media.openVideo")}
      </a>{" "}
      <small className="muted">{info.url}</small>
    </p>
  );
}

function LiveSession({ info }: { info: Live }) {
  const { t, lang } = useI18n();
  return (
    <div>
      <dl className="facts">
        <dt>{t("media.status")}</dt>
        <dd>
          <span className="badge">{t(`media.live.${info.status}`)}</span>
        </dd>
        <dt>{t("media.startAt")}</dt>
        <dd>{formatDate(info.startAt, lang)}</dd>
        <dt>{t("media.endAt")}</dt>
        <dd>{formatDate(info.endAt, lang)}</dd>
        <dt>{t("media.provider")}</dt>
        <dd>{t(`media.providers.${info.provider}`)}</dd>
      </dl>
      {info.status !== "ENDED" && (
        <a className="button primary" href={info.joinUrl} target="_blank" rel="noopener noreferrer">
          {t("media.join")}
        </a>
      )}
    </div>
  );
}

function DocumentDownload({ info }: { info: Doc }) {
  const { t } = useI18n();
  return (
    <dl className="facts">
      <dt>{t("media.fileType")}</dt>
      <dd>{info.mimeType}</dd>
      {info.pageCount !== null && (
        <>
          <dt>{t("media.pages")}</dt>
          <dd>{info.pageCount}</dd>
        </>
      )}
      <dt>{t("media.file")}</dt>
      <dd>
        {info.downloadUrl ? (
          <a href={info.downloadUrl} download>
            {t("media.download")}
          </a>
        ) : (
          <span role="status">{t("media.processing")}</span>
        )}
      </dd>
    </dl>
  );
}
