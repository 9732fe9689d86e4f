declare module "*.css" {
  const path: string;
  export default path;
}
declare module "*.sql" {
  const text: string;
  export default text;
}
declare module "swagger-ui-dist/swagger-ui-bundle.js" {
  const path: string;
  export default path;
}
// prom-client's parts, imported one by one: its index also loads the push gateway's HTTP client, the
// cluster aggregator and the default collectors (docs/rules/performance.md#start).
declare module "prom-client/lib/registry" {
  import { Registry } from "prom-client";
  export = Registry;
}
declare module "prom-client/lib/counter" {
  import { Counter } from "prom-client";
  export = Counter;
}
declare module "prom-client/lib/gauge" {
  import { Gauge } from "prom-client";
  export = Gauge;
}
declare module "prom-client/lib/histogram" {
  import { Histogram } from "prom-client";
  export = Histogram;
}
