import { lazy, Suspense } from "react";
import { useSearch } from "../../ui/router";
import { Loading } from "../../ui/ui";
import { SpaceList } from "./SpaceList";

const SpaceHome = lazy(() => import("./SpaceHome"));
const ContentPage = lazy(() => import("../library/ContentPage"));

/** /spaces, ?space= (a space's home) and &content= (one of its contents): each deeper level is its own chunk. */
export default function SpacesPage() {
  const { get } = useSearch();
  const spaceId = get("space");
  const contentId = get("content");
  return (
    <Suspense fallback={<Loading />}>
      {spaceId && contentId ? (
        <ContentPage key={contentId} spaceId={spaceId} contentId={contentId} />
      ) : spaceId ? (
        <SpaceHome key={spaceId} spaceId={spaceId} />
      ) : (
        <SpaceList />
      )}
    </Suspense>
  );
}
