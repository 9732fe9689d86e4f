import { queryOptions } from "@tanstack/react-query";
import { api, type Init, ok } from "../../api/client";

/** The terms screen's cache key (writes answer the whole list, set straight into it). */
export const termKeys = { all: ["terms"] as const };

export const termsQuery = () => queryOptions({ queryKey: termKeys.all, queryFn: () => ok(api.GET("/api/v1/terms")) });

// The area's writes, one function per operation (named by its operationId).
export const createTerm = (init: Init<"/api/v1/terms", "post">) => ok(api.POST("/api/v1/terms", init));
export const setCurrentTermVersion = (init: Init<"/api/v1/terms/{topic}/current-version", "put">) =>
  ok(api.PUT("/api/v1/terms/{topic}/current-version", init));
export const updateTerm = (init: Init<"/api/v1/terms/{topic}", "patch">) => ok(api.PATCH("/api/v1/terms/{topic}", init));
