// Layering rules checked in CI (`npm run depcruise`); docs/architecture.md draws the same picture.
// Which module is which (docs/architecture.md#layers). A new module goes in one of these lists.
const BASE = [
  "auth", "console", "fields", "files", "grants", "groups", "health", "hosted-pages", "invitations", "join-codes",
  "library", "login-page", "members", "notifications", "org", "roles", "spaces", "sso", "tenant", "terms",
];
const CORES = ["submissions", "question-sets", "similarity", "gradebook"];
const FEATURES = [
  "assignments", "group-assignments", "peer-assessments", "quizzes", "surveys", "challenges", "posts", "messages",
  "copies", "guardians",
];
const modules = (names) => `^src/modules/(${names.join("|")})/`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "A circle makes load order matter and no part of it can be read or changed alone.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "platform-knows-no-domain",
      comment: "src/platform is the bottom layer: it serves every module, so it may not know any of them.",
      severity: "error",
      from: { path: "^src/platform/" },
      to: { path: "^src/modules/" },
    },
    {
      name: "schema-knows-no-module",
      comment: "src/schema holds the tables several modules share; it sits under the modules, so it imports none.",
      severity: "error",
      from: { path: "^src/schema/" },
      to: { path: "^src/modules/" },
    },
    {
      name: "every-module-has-a-layer",
      comment: "Each module is base, core or feature (the lists above), so the two rules below see it.",
      severity: "error",
      from: { path: "^src/" },
      to: { path: "^src/modules/[^/]+/", pathNot: modules([...BASE, ...CORES, ...FEATURES]) },
    },
    {
      name: "base-knows-no-feature",
      comment:
        "Base modules serve everything above them; what they need of a feature, the feature registers (src/app.ts registerFeatures). Checked through every path, not only direct imports.",
      severity: "error",
      from: { path: modules(BASE) },
      to: { path: modules([...CORES, ...FEATURES]), reachable: true },
    },
    {
      name: "cores-know-no-feature",
      comment:
        "The cores (submissions, question sets, similarity, gradebook) serve the features built on them; a feature registers what a core needs of it. Checked through every path.",
      severity: "error",
      from: { path: modules(CORES) },
      to: { path: modules(FEATURES), reachable: true },
    },
    {
      name: "nothing-imports-the-entry",
      comment: "app.ts, main.ts and the cli assemble the server from the modules; a module importing them points up.",
      severity: "error",
      from: { path: "^src/(modules|platform|schema)/" },
      to: { path: "^src/(app|main)\\.ts$|^src/cli/" },
    },
    {
      name: "tables-stay-in-their-module",
      comment: "Queries live in the module that owns the table; others call its functions (or use src/schema, the shared tables).",
      severity: "error",
      from: { path: "^src/modules/([^/]+)/" },
      to: { path: "^src/modules/([^/]+)/tables\\.ts$", pathNot: "^src/modules/$1/" },
    },
    {
      name: "web-ui-knows-no-screen",
      comment: "web/src/ui holds the parts every screen shares; it sits under the frame (app/) and the features, so it imports neither.",
      severity: "error",
      from: { path: "^web/src/(ui|api|i18n)/" },
      to: { path: "^web/src/(app|features)/" },
    },
    {
      name: "web-features-use-the-session-only",
      comment: "A feature screen reads the signed-in member (app/session, app/SessionControls); the frame, navigation and screen table are app/'s own.",
      severity: "error",
      from: { path: "^web/src/features/" },
      to: { path: "^web/src/app/", pathNot: "^web/src/app/(session\\.tsx|SessionControls\\.tsx)$" },
    },
    {
      name: "web-submissions-core-knows-no-feature",
      comment: "web/src/features/submissions serves the assignment and group assignment screens, like src/modules/submissions serves their modules; importing one back would tie them.",
      severity: "error",
      from: { path: "^web/src/features/submissions/" },
      to: { path: "^web/src/features/(assignments|group-assignments|peer-assessments)/" },
    },
    {
      name: "web-screens-call-the-api-through-queries",
      comment:
        "A feature calls the API only in its queries.ts (reads with the key factory, writes by operationId), so every cache key and invalidation has one home (docs/rules/console.md#api-calls); app/ (session, sign-in) may call it too. Errors come from web/src/api/problem.ts.",
      severity: "error",
      from: { path: "^web/src/(features|ui)/", pathNot: "/queries\\.ts$" },
      to: { path: "^web/src/api/client\\.ts$" },
    },
    {
      name: "web-uses-the-generated-client",
      comment: "The console reaches the server only over HTTP through web/src/api, so an API change is a type error there.",
      severity: "error",
      from: { path: "^web/" },
      to: { path: "^(src|test|scripts|bench)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^src/platform/db/migrations\\.gen\\.ts$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js", ".json"] },
  },
};
