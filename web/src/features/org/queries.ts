import { queryOptions } from "@tanstack/react-query";
import { api, cursorPages, ok } from "../../api/client";

/** The organisation screen's cache keys: a write invalidates what the screen reads through these. */
export const orgKeys = {
  units: ["org-units"] as const,
  unitMembers: (unitId: string) => ["org-unit-members", unitId] as const,
  positions: ["positions"] as const,
};

export const orgUnitsQuery = () => queryOptions({ queryKey: orgKeys.units, queryFn: () => ok(api.GET("/api/v1/org-units")) });

/** A unit's members a page at a time (cursor-paged). */
export const orgUnitMembersQuery = (orgUnitId: string) =>
  cursorPages(orgKeys.unitMembers(orgUnitId), (cursor) =>
    ok(
      api.GET("/api/v1/org-units/{orgUnitId}/members", {
        params: { path: { orgUnitId }, query: { limit: 50, cursor } },
      }),
    ),
  );

/** The positions and whether they are in use (shared by the org screen and a member's position). */
export const positionsQuery = () => queryOptions({ queryKey: orgKeys.positions, queryFn: () => ok(api.GET("/api/v1/position-settings")) });
