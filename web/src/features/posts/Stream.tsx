import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, ok } from "../../api/client";
import { useI18n } from "../../i18n";
import { Loading, MoreButton, Select } from "../../ui/ui";
import { PostComposer } from "./PostComposer";
import { PostItem } from "./PostItem";

const STATUSES = ["PUBLISHED", "SCHEDULED", "ARCHIVED"] as const;
type Status = (typeof STATUSES)[number];

/** A space's stream of posts, pinned then newest first; its admins write new ones and see the scheduled and archived ones too. */
export default function Stream({ spaceId, admin }: { spaceId: string; admin: boolean }) {
  const { t } = useI18n();
  const [status, setStatus] = useState<Status>("PUBLISHED");
  const posts = useInfiniteQuery({
    queryKey: ["posts", spaceId, status],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => ok(api.GET("/api/v1/posts", { params: { query: { spaceId, status, cursor: pageParam, limit: 20 } } })),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
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
        list.map((p) => <PostItem key={p.id} post={p} admin={admin} />)
      )}
      <MoreButton list={posts} label={t("posts.more")} />
    </div>
  );
}
