import { lazy, Suspense } from "react";
import { useLocation } from "../../shell/router";
import { Loading } from "../../shell/ui";
import { SpaceList } from "./SpaceList";

const SpaceHome = lazy(() => import("./SpaceHome"));
const ContentPage = lazy(() => import("../library/ContentPage"));

/** /spaces, /spaces/:spaceId and /spaces/:spaceId/contents/:contentId: each deeper level is its own chunk. */
export default function SpacesPage() {
  const { path } = useLocation();
  const [, spaceId, , contentId] = path.split("/").filter(Boolean);
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
