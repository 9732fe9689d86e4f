import { useState } from "react";
import { useI18n } from "../../i18n";
import { Loading, MoreButton, Select } from "../../ui/ui";
import { PostComposer } from "./PostComposer";
import { PostItem } from "./PostItem";
import { usePosts } from "./queries";

const STATUSES = ["PUBLISHED", "SCHEDULED", "ARCHIVED"] as const;
type Status = (typeof STATUSES)[number];

/**
 * A space's stream of posts, pinned then newest first, each with its comments (participants write
 * them while the space's community is on); its admins write new posts and see the scheduled and archived ones too.
 */
export default function Stream({ spaceId, admin, community }: { spaceId: string; admin: boolean; community: boolean }) {
  const { t } = useI18n();
  const [status, setStatus] = useState<Status>("PUBLISHED");
  const posts = usePosts(spaceId, { status });
  const list = posts.data?.pages.flatMap((p) => p.posts) ?? [];
  return (
    <div className="stack">
      {admin && <PostComposer spaceId={spaceId} />}
      {admin && (
        <div className="filters">
          <Select
            label={t("posts.show")}
            value={status}
            onChange={(v) => setStatus(v as Status)}
            options={STATUSES.map((s) => ({ value: s, label: t(`posts.statuses.${s}`) }))}
          />
        </div>
      )}
      {!posts.data ? (
        <Loading />
      ) : list.length === 0 ? (
        <p>{t("common.empty")}</p>
      ) : (
        list.map((p) => <PostItem key={p.id} post={p} admin={admin} canComment={community} />)
      )}
      <MoreButton list={posts} label={t("posts.more")} />
    </div>
  );
}
