import { queryOptions } from "@tanstack/react-query";
import { api, ok } from "../../api/client";

/** The join codes screen's cache key. */
export const joinCodeKeys = { all: ["join-codes"] as const };

export const joinCodesQuery = () => queryOptions({ queryKey: joinCodeKeys.all, queryFn: () => ok(api.GET("/api/v1/join-codes")) });
