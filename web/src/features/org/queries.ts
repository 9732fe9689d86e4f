import { queryOptions } from "@tanstack/react-query";
import { api, cursorPages, type Init, ok } from "../../api/client";

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

// The area's writes, one function per operation (named by its operationId).
export const addOrgUnitMembers = (init: Init<"/api/v1/org-units/{orgUnitId}/members", "post">) =>
  ok(api.POST("/api/v1/org-units/{orgUnitId}/members", init));
export const createOrgUnit = (init: Init<"/api/v1/org-units", "post">) => ok(api.POST("/api/v1/org-units", init));
export const createPosition = (init: Init<"/api/v1/positions", "post">) => ok(api.POST("/api/v1/positions", init));
export const deleteOrgUnit = (init: Init<"/api/v1/org-units/{orgUnitId}", "delete">) =>
  ok(api.DELETE("/api/v1/org-units/{orgUnitId}", init));
export const deletePosition = (init: Init<"/api/v1/positions/{positionId}", "delete">) =>
  ok(api.DELETE("/api/v1/positions/{positionId}", init));
export const removeOrgUnitMember = (init: Init<"/api/v1/org-units/{orgUnitId}/members/{userPkId}", "delete">) =>
  ok(api.DELETE("/api/v1/org-units/{orgUnitId}/members/{userPkId}", init));
export const updateOrgUnit = (init: Init<"/api/v1/org-units/{orgUnitId}", "patch">) => ok(api.PATCH("/api/v1/org-units/{orgUnitId}", init));
export const updatePosition = (init: Init<"/api/v1/positions/{positionId}", "patch">) =>
  ok(api.PATCH("/api/v1/positions/{positionId}", init));
export const updatePositionSettings = (init: Init<"/api/v1/position-settings", "put">) => ok(api.PUT("/api/v1/position-settings", init));
