import { queryOptions } from "@tanstack/react-query";
import { api, ok } from "../../api/client";

/** The terms screen's cache key (writes answer the whole list, set straight into it). */
export const termKeys = { all: ["terms"] as const };

export const termsQuery = () => queryOptions({ queryKey: termKeys.all, queryFn: () => ok(api.GET("/api/v1/terms")) });
