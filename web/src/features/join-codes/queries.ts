import { queryOptions } from "@tanstack/react-query";
import { api, type Init, ok } from "../../api/client";

/** The join codes screen's cache key. */
export const joinCodeKeys = { all: ["join-codes"] as const };

export const joinCodesQuery = () => queryOptions({ queryKey: joinCodeKeys.all, queryFn: () => ok(api.GET("/api/v1/join-codes")) });

// The area's writes, one function per operation (named by its operationId).
export const createTenantJoinCode = (init: Init<"/api/v1/join-codes", "post">) => ok(api.POST("/api/v1/join-codes", init));
export const updateTenantJoinCode = (init: Init<"/api/v1/join-codes/{joinCodeId}", "patch">) =>
  ok(api.PATCH("/api/v1/join-codes/{joinCodeId}", init));
