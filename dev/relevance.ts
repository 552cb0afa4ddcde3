/**
 * The relevance bench's labelled set: eighteen conversations written for it (English, Chinese and both,
 * in three workspaces), 63 queries of the kinds people type, each labelled with the one conversation it
 * looks for, and the store they are planted in: a bench corpus, the conversations spread through it, and
 * short sessions that each hold one word of a query in another context. Written once, before the
 * ranking was measured on it; a change of the ranking is judged on every kind, never on one query.
 */
import { CORPORA, type ConversationSpec, type ConversationTurn, type CorpusName, fallbackTitle, sentencePool } from './corpus.ts'

/** One planted conversation. */
export interface Planted {
  readonly key: string
  /** Its workspace: `ws-00`, `ws-01` or `ws-02`. */
  readonly workspace: 0 | 1 | 2
  readonly language: 'en' | 'zh'
  readonly turns: readonly ConversationTurn[]
}

/** What a query exercises. */
export type RelevanceKind = 'other order' | 'mixed' | 'phrase' | 'word form' | 'words apart' | 'missing word' | 'filter'

/** One labelled query. */
export interface LabelledQuery {
  readonly kind: RelevanceKind
  readonly language: 'en' | 'zh'
  readonly query: string
  /** The planted conversation the person means. */
  readonly meant: string
}

const turn = (user: string, reply: string): ConversationTurn => ({ user, reply })

/** The conversations. */
export const PLANTED: readonly Planted[] = [
  { key: 'stripe-webhook', workspace: 0, language: 'en', turns: [
    turn('Stripe keeps retrying the webhook for invoice.paid even though our endpoint returns 200. Can you check the handler?', 'The handler returns 200 only after the database write commits; when the write takes longer than 10 seconds Stripe times out and retries the webhook. Acknowledge first, then process the event in a background job, and make the processing idempotent by storing the event id.'),
    turn('ok, add the idempotency table and a unique index on event_id', 'Added a webhook_events table with a unique index on event_id; duplicate deliveries now return early.'),
  ] },
  { key: 'deploy-failed', workspace: 1, language: 'en', turns: [
    turn('The deploy failed again on staging, the health check never passes', 'The container starts but the readiness probe hits /healthz before migrations finish. The rollout is marked failed after three probe failures. Move the migrations into an init step or raise initialDelaySeconds.'),
    turn('raised the delay to 45 seconds, redeploying now', 'The new rollout passed its health checks; all pods are ready.'),
  ] },
  { key: 'postgres-autovacuum', workspace: 1, language: 'en', turns: [
    turn('Our orders table in Postgres grew to 80 GB while the live rows are maybe 10 GB. Autovacuum seems to run but never catches up.', 'Dead tuples pile up faster than autovacuum cleans them because the table gets heavy updates. Lower autovacuum_vacuum_scale_factor for that table to 0.02, raise autovacuum_vacuum_cost_limit, and check for long-running transactions that hold back the xmin horizon.'),
    turn('there was an idle in transaction connection from the reporting job open for two days', 'That explains it: the open transaction kept every dead tuple visible. Set idle_in_transaction_session_timeout and run VACUUM (VERBOSE) once it is closed; pg_repack can give the space back without a long lock.'),
  ] },
  { key: 'cookie-leak', workspace: 0, language: 'en', turns: [
    turn('Session cookies are leaking to the marketing subdomain, users get logged in on blog.example.com', 'The cookie is set with Domain=.example.com, which shares it with every subdomain. Drop the Domain attribute so the cookie is host-only, and add SameSite=Lax and Secure.'),
    turn('will that log everyone out?', 'Only once: the old cookie stays until it expires, so also clear it explicitly with an expired Set-Cookie for the old domain.'),
  ] },
  { key: 'node-memory', workspace: 2, language: 'en', turns: [
    turn('The Node worker\'s memory keeps climbing until the container gets OOM killed every few hours', 'A heap snapshot shows thousands of listeners on the same EventEmitter: every request adds a listener to the shared socket and never removes it. That is the leak. Use once() or remove the listener in a finally block.'),
    turn('fixed, heap is flat now after 6 hours', 'Good. Keep the heap graph on the dashboard so a regression shows early.'),
  ] },
  { key: 'rate-limit', workspace: 2, language: 'en', turns: [
    turn('We need to rate limit the public API per API key, 100 requests a minute', 'A sliding window in Redis works well: keep a sorted set per key with request timestamps, trim entries older than 60 seconds, and count. Do it in one Lua script so the check and the insert are atomic.'),
    turn('what do we return when the limit is hit?', '429 Too Many Requests with a Retry-After header giving the seconds until the oldest entry leaves the window.'),
  ] },
  { key: 'timezone-test', workspace: 0, language: 'en', turns: [
    turn('The date formatting test fails only on CI, passes on my laptop', 'CI runs in UTC and your laptop in Asia/Shanghai; the test builds a Date from a local midnight string. Set TZ=UTC in the test script or construct dates with Date.UTC so the expectation does not depend on the machine\'s timezone.'),
  ] },
  { key: 'docker-cache', workspace: 1, language: 'en', turns: [
    turn('Docker builds take 12 minutes because npm install runs every time', 'The COPY . . comes before npm ci, so any source change invalidates the layer cache. Copy package.json and package-lock.json first, run npm ci, then copy the rest. With BuildKit you can also mount a cache for ~/.npm.'),
    turn('down to 90 seconds now', 'Nice. The lockfile layer is reused until dependencies change.'),
  ] },
  { key: 'signature', workspace: 0, language: 'zh', turns: [
    turn('回调接口需要先校验签名，再处理业务逻辑。签名算法是 HMAC-SHA256。', '建议在中间件里统一校验签名：取出请求头里的时间戳和签名，用密钥对原始请求体计算 HMAC，再用常量时间比较。时间戳超过五分钟的请求直接拒绝，防止重放攻击。'),
    turn('原始请求体被 JSON 解析过了怎么办', '要在解析之前保留原始字节，否则重新序列化后的内容和对方签名时的不一致，校验一定失败。'),
  ] },
  { key: 'permission', workspace: 1, language: 'zh', turns: [
    turn('管理后台的导出功能没有校验用户的权限，普通员工也能导出全部客户数据。', '导出接口只检查了登录状态。应该在服务端按角色判断权限，只有管理员和财务角色可以导出，并且记录审计日志。前端隐藏按钮不能代替服务端的权限判断。'),
  ] },
  { key: 'gray-release', workspace: 2, language: 'zh', turns: [
    turn('新版本想先灰度发布给百分之五的用户，出问题能马上回滚。', '可以按用户编号取模分流，配置中心里放灰度比例。监控错误率和延迟，超过阈值自动把比例调回零。回滚不需要重新部署，只要改配置。'),
  ] },
  { key: 'db-timeout', workspace: 1, language: 'zh', turns: [
    turn('高峰期数据库连接经常超时，应用日志里全是获取连接失败。', '连接池最大连接数只有十个，而慢查询占着连接不放。先把慢查询加上索引，再把连接池调到三十，并设置获取连接的超时时间为三秒，超时后快速失败而不是一直排队。'),
  ] },
  { key: 'cache-penetration', workspace: 2, language: 'zh', turns: [
    turn('缓存穿透的问题怎么解决？有人用不存在的商品编号刷接口，请求全部打到数据库。', '对查不到的编号也缓存一个空值，过期时间设短一些；再加一个布隆过滤器在入口拦截不存在的编号。同时对单个来源做限流。'),
  ] },
  { key: 'log-rotation', workspace: 0, language: 'zh', turns: [
    turn('服务器磁盘满了，一查是日志文件没有轮转，一个文件就有两百多个G。', '用 logrotate 按天轮转并压缩，保留十四天。应用如果一直持有文件句柄，要配置 copytruncate 或者让应用在收到信号后重新打开日志文件。'),
  ] },
  { key: 'nginx-timeout', workspace: 2, language: 'zh', turns: [
    turn('nginx 反向代理到 Node 服务，上传大文件的时候总是 504 超时', '把 proxy_read_timeout 和 client_max_body_size 调大，另外 client_body_buffer_size 太小会把请求体写到临时文件，也会变慢。上传接口最好单独配置一个 location。'),
  ] },
  { key: 'k8s-oom', workspace: 1, language: 'zh', turns: [
    turn('k8s 里的 Java 服务老是被 OOMKilled，但是堆内存明明只设了 2G', '容器的内存限制是 2.5G，而堆之外还有元空间、线程栈和直接内存。用 -XX:MaxRAMPercentage=75 代替固定的 Xmx，让 JVM 按容器限制计算堆大小。'),
  ] },
  { key: 'git-rebase', workspace: 0, language: 'zh', turns: [
    turn('git rebase 之后提交历史乱了，有几个 commit 重复了', '你在 rebase 之前已经 push 过这些提交，别人又基于旧的提交合并了。用 git reflog 找到 rebase 之前的位置，reset 回去，然后和团队约定共享分支只 merge 不 rebase。'),
  ] },
  { key: 'react-render', workspace: 2, language: 'zh', turns: [
    turn('React 列表每次输入都全部重新渲染，页面很卡', '父组件每次渲染都创建新的回调函数和对象，传给子组件后 memo 失效。用 useCallback 和 useMemo 稳定这些引用，长列表再配合虚拟滚动。'),
  ] },
]

const q = (kind: RelevanceKind, language: 'en' | 'zh', query: string, meant: string): LabelledQuery => ({ kind, language, query, meant })

/** The labelled queries. */
export const LABELLED: readonly LabelledQuery[] = [
  q('other order', 'en', 'webhook retry stripe', 'stripe-webhook'),
  q('other order', 'en', 'health check deploy staging', 'deploy-failed'),
  q('other order', 'en', 'redis sliding window rate limit', 'rate-limit'),
  q('other order', 'en', 'npm docker layer cache', 'docker-cache'),
  q('other order', 'en', 'timezone test CI', 'timezone-test'),
  q('other order', 'zh', '导出 权限', 'permission'),
  q('other order', 'zh', '回滚 灰度', 'gray-release'),
  q('other order', 'zh', '磁盘 日志', 'log-rotation'),
  q('mixed', 'zh', 'nginx 超时', 'nginx-timeout'),
  q('mixed', 'zh', 'OOMKilled 内存', 'k8s-oom'),
  q('mixed', 'zh', 'git rebase 重复', 'git-rebase'),
  q('mixed', 'zh', 'React 渲染', 'react-render'),
  q('mixed', 'zh', 'HMAC 签名', 'signature'),
  q('mixed', 'zh', 'logrotate 日志', 'log-rotation'),
  q('phrase', 'en', '"dead tuples"', 'postgres-autovacuum'),
  q('phrase', 'en', '"readiness probe"', 'deploy-failed'),
  q('phrase', 'en', '"unique index" webhook', 'stripe-webhook'),
  q('phrase', 'en', '"heap snapshot"', 'node-memory'),
  q('phrase', 'zh', '"连接池"', 'db-timeout'),
  q('phrase', 'zh', '"布隆过滤器"', 'cache-penetration'),
  q('phrase', 'zh', '"常量时间"', 'signature'),
  q('word form', 'en', 'deploys failing', 'deploy-failed'),
  q('word form', 'en', 'cookie leak subdomain', 'cookie-leak'),
  q('word form', 'en', 'listener leaks', 'node-memory'),
  q('word form', 'en', 'retried webhooks', 'stripe-webhook'),
  q('word form', 'en', 'vacuuming the orders tables', 'postgres-autovacuum'),
  q('word form', 'en', 'builds caching', 'docker-cache'),
  q('word form', 'en', 'limiting requests per key', 'rate-limit'),
  q('word form', 'en', 'formatted dates failing tests', 'timezone-test'),
  q('word form', 'en', 'logged users subdomains', 'cookie-leak'),
  q('word form', 'en', 'migration finishing probes', 'deploy-failed'),
  q('word form', 'zh', '数据库连接超时了', 'db-timeout'),
  q('word form', 'zh', '校验了签名', 'signature'),
  q('word form', 'zh', '权限的校验', 'permission'),
  q('words apart', 'zh', '签名校验', 'signature'),
  q('words apart', 'zh', '权限校验', 'permission'),
  q('words apart', 'zh', '发布灰度', 'gray-release'),
  q('words apart', 'zh', '超时连接', 'db-timeout'),
  q('words apart', 'zh', '穿透缓存', 'cache-penetration'),
  q('words apart', 'zh', '轮转日志', 'log-rotation'),
  q('words apart', 'zh', '重新渲染列表', 'react-render'),
  q('words apart', 'zh', '容器内存限制', 'k8s-oom'),
  q('words apart', 'zh', '空值缓存', 'cache-penetration'),
  q('missing word', 'en', 'postgres vacuum bloat', 'postgres-autovacuum'),
  q('missing word', 'en', 'stripe webhook idempotency timeout', 'stripe-webhook'),
  q('missing word', 'en', 'node memory leak profiler', 'node-memory'),
  q('missing word', 'en', 'docker build npm cache speedup', 'docker-cache'),
  q('missing word', 'en', 'cookie domain logout', 'cookie-leak'),
  q('missing word', 'en', 'JVM OOMKilled heap tuning', 'k8s-oom'),
  q('missing word', 'zh', '灰度发布 金丝雀', 'gray-release'),
  q('missing word', 'zh', '缓存穿透 黑名单', 'cache-penetration'),
  q('missing word', 'zh', '日志轮转 清理脚本', 'log-rotation'),
  q('missing word', 'zh', '签名校验 证书', 'signature'),
  q('filter', 'en', 'webhook in:ws-00', 'stripe-webhook'),
  q('filter', 'en', 'health check in:ws-01', 'deploy-failed'),
  q('filter', 'en', 'leak in:ws-02', 'node-memory'),
  q('filter', 'en', 'from:me deploy staging', 'deploy-failed'),
  q('filter', 'en', 'from:agent idempotent', 'stripe-webhook'),
  q('filter', 'en', 'from:me rebase', 'git-rebase'),
  q('filter', 'zh', '权限 in:ws-01', 'permission'),
  q('filter', 'zh', 'from:me 灰度', 'gray-release'),
  q('filter', 'zh', 'from:agent 布隆过滤器', 'cache-penetration'),
  q('filter', 'zh', '超时 in:ws-02', 'nginx-timeout'),
]

/** A query's plain words: its tokens without filters or quotes, a Chinese token of four or more characters as its halves. */
function wordsOf(query: string): string[] {
  return query.replaceAll('"', ' ').split(/\s+/u).filter(token => token !== '' && !/^(in|from|after|before):/u.test(token)).flatMap(token => {
    const chars = [...token]
    return /\p{Script=Han}/u.test(token) && chars.length >= 4 ? [chars.slice(0, 2).join(''), chars.slice(2).join('')] : [token]
  })
}

/** Where each planted conversation and each one-word session goes in a store of `sessions`: planted ones spread evenly, one-word ones between them. */
function positions(sessions: number, distractors: number): { planted: Map<number, Planted>; distractor: Map<number, number> } {
  const planted = new Map<number, Planted>()
  PLANTED.forEach((spec, k) => planted.set(Math.floor(((k + 1) * sessions) / (PLANTED.length + 1)), spec))
  const distractor = new Map<number, number>()
  for (let k = 0, at = 1; k < distractors; k += 1, at += Math.max(1, Math.floor(sessions / (distractors + 1)))) {
    let slot = at
    while (planted.has(slot) || distractor.has(slot)) slot += 1
    distractor.set(slot, k)
  }
  return { planted, distractor }
}

/** The one-word sessions: for each word of each query, a short session of two README sentences that holds that word in another context. */
export function oneWordSessions(hostDir: string): ConversationSpec[] {
  const pool = sentencePool(hostDir)
  const words = [...new Set(LABELLED.flatMap(query => wordsOf(query.query)))]
  return words.map((word, k) => {
    const chinese = /\p{Script=Han}/u.test(word)
    const sentences = chinese ? pool.zh : pool.en
    const user = `${sentences[(k * 7) % sentences.length]} ${chinese ? `提到${word}。` : `It mentions ${word} in passing.`}`
    const reply = sentences[(k * 13 + 5) % sentences.length]!
    return { workspace: k % 20, language: chinese ? 'zh' : 'en', mixed: false, title: fallbackTitle(user), turns: [{ user, reply }] }
  })
}

/** A store of `sessions` sessions: the corpus, with the planted conversations and the one-word sessions in place of some of its sessions. Returns the specs and, per store index, the planted conversation's key. */
export function relevanceStore(hostDir: string, corpus: CorpusName, options: { sessions: number; workspaces: number }): { specs: Iterable<ConversationSpec>; planted: ReadonlyMap<number, string> } {
  const distractors = oneWordSessions(hostDir)
  const { planted, distractor } = positions(options.sessions, distractors.length)
  const specs = function* (): Generator<ConversationSpec> {
    let n = 0
    for (const spec of CORPORA[corpus](hostDir, options)) {
      const plant = planted.get(n)
      const other = distractor.get(n)
      if (plant !== undefined) yield { workspace: plant.workspace, language: plant.language, mixed: plant.language === 'zh', title: fallbackTitle(plant.turns[0]!.user), turns: plant.turns }
      else if (other !== undefined) yield { ...distractors[other]!, workspace: distractors[other]!.workspace % options.workspaces }
      else yield spec
      n += 1
    }
  }
  return { specs: specs(), planted: new Map([...planted].map(([at, spec]) => [at, spec.key])) }
}

/** One surface's figures on a set of queries. */
export interface RelevanceFigures {
  readonly queries: number
  /** Share of queries whose meant session is among the first five answers. */
  readonly recallAt5: number
  /** Mean of 1 / the meant session's rank (0 where it is not answered). */
  readonly mrr: number
}

/** Recall at 5 and MRR of ranks (from 1; 0 where the session was not answered). */
export function relevanceOf(ranks: readonly number[]): RelevanceFigures {
  if (ranks.length === 0) return { queries: 0, recallAt5: 0, mrr: 0 }
  return {
    queries: ranks.length,
    recallAt5: ranks.filter(rank => rank >= 1 && rank <= 5).length / ranks.length,
    mrr: ranks.reduce((sum, rank) => sum + (rank > 0 ? 1 / rank : 0), 0) / ranks.length,
  }
}

/** One draft a person might start in a new session: `meant`, the planted conversation it continues (written without copying its sentences); `null` for a draft about nothing in the store. */
export interface RelatedDraft {
  readonly language: 'en' | 'zh' | 'mixed'
  readonly draft: string
  readonly meant: string | null
}

const d = (language: RelatedDraft['language'], draft: string, meant: string | null): RelatedDraft => ({ language, draft, meant })

/** The drafts of the related-sessions bench: 42 that continue a planted conversation, 12 about nothing in the store. Written once, like the labelled queries. */
export const RELATED_DRAFTS: readonly RelatedDraft[] = [
  d('en', 'Stripe is sending the invoice webhook twice again. Where do we dedupe the events before the background job runs?', 'stripe-webhook'),
  d('en', 'I want to move the webhook processing for Stripe to a queue and keep the endpoint fast', 'stripe-webhook'),
  d('mixed', 'Stripe webhook 的幂等表要不要加过期清理？event_id 越来越多了', 'stripe-webhook'),
  d('en', 'Staging rollout is stuck again, pods never become ready after the migration step', 'deploy-failed'),
  d('en', 'Should the database migrations run in an init container so the readiness checks stop failing?', 'deploy-failed'),
  d('mixed', 'staging 的 readiness probe 又失败了，initialDelaySeconds 还要再调大吗', 'deploy-failed'),
  d('en', 'The orders table is bloated again, autovacuum cannot keep up with the updates', 'postgres-autovacuum'),
  d('en', 'Let us schedule pg_repack for the orders table and add an alert on dead tuples', 'postgres-autovacuum'),
  d('mixed', 'Postgres 的 autovacuum 参数上次改过了，orders 表现在又膨胀，要不要再调 scale factor', 'postgres-autovacuum'),
  d('en', 'After making the session cookie host-only, some users on the blog subdomain still appear logged in', 'cookie-leak'),
  d('en', 'Add SameSite and Secure to every cookie we set, like we did for the session cookie domain fix', 'cookie-leak'),
  d('mixed', '子域名共享 session cookie 的问题修完了吗？SameSite 要设成 Strict 还是 Lax', 'cookie-leak'),
  d('en', 'The Node worker is leaking memory again, maybe more EventEmitter listeners piling up on the socket', 'node-memory'),
  d('en', 'Write a test that fails when a request leaves a listener behind on the shared emitter', 'node-memory'),
  d('mixed', 'Node worker 的内存又在涨，像上次 EventEmitter listener 泄漏那样，帮我看看 heap snapshot', 'node-memory'),
  d('en', 'The Redis rate limiter lets bursts through at the window edge, can the Lua script use a sliding window instead?', 'rate-limit'),
  d('en', 'Expose the remaining quota per API key in a header next to Retry-After', 'rate-limit'),
  d('mixed', 'API key 限流要改成每分钟 200 次，Redis 里的 sorted set 要不要改', 'rate-limit'),
  d('en', 'Another date test fails on CI but not locally, probably the timezone again', 'timezone-test'),
  d('en', 'Make every test run with TZ=UTC so date formatting stops depending on the machine', 'timezone-test'),
  d('en', 'Docker image builds got slow again after someone moved the COPY before npm ci', 'docker-cache'),
  d('en', 'Use a BuildKit cache mount for npm in the Dockerfile so layer cache misses cost less', 'docker-cache'),
  d('zh', '回调的签名校验要支持密钥轮换，旧密钥和新密钥同时有效一段时间', 'signature'),
  d('zh', '签名时间戳的有效期改成三分钟，重放攻击的检查也要加日志', 'signature'),
  d('mixed', 'HMAC 签名校验现在放在中间件里，原始请求体怎么保留下来', 'signature'),
  d('zh', '导出接口的权限判断要补上审计日志，看看谁导出了客户数据', 'permission'),
  d('zh', '除了导出，管理后台其他接口是不是也只检查了登录状态，没有按角色判断权限', 'permission'),
  d('zh', '灰度比例想从百分之五调到百分之二十，错误率监控的阈值要不要改', 'gray-release'),
  d('zh', '灰度发布的自动回滚能不能也看延迟，不只是错误率', 'gray-release'),
  d('zh', '数据库连接池调到三十以后，高峰期还是有获取连接超时', 'db-timeout'),
  d('zh', '慢查询的索引加完了，连接超时的问题要再观察一下连接池的指标', 'db-timeout'),
  d('zh', '布隆过滤器的误判率怎么设置，商品编号大概有一千万个', 'cache-penetration'),
  d('zh', '空值缓存的过期时间设多久合适，不存在的编号请求又变多了', 'cache-penetration'),
  d('zh', '日志轮转配好了，但是应用还在往旧文件里写，磁盘又快满了', 'log-rotation'),
  d('mixed', 'logrotate 的 copytruncate 会不会丢日志？压缩保留十四天够不够', 'log-rotation'),
  d('mixed', 'nginx 上传大文件还是偶尔 504，proxy_read_timeout 已经调过了', 'nginx-timeout'),
  d('zh', '上传接口单独配置的 location 里还要改哪些缓冲区参数', 'nginx-timeout'),
  d('mixed', 'Java 服务在 k8s 里又被 OOMKilled 了，MaxRAMPercentage 是不是设得太高', 'k8s-oom'),
  d('zh', '容器内存限制调到三个G以后，元空间和直接内存要不要单独限制', 'k8s-oom'),
  d('mixed', '共享分支又有人 rebase 了，提交历史里出现重复的 commit，怎么用 reflog 恢复', 'git-rebase'),
  d('mixed', 'React 长列表输入的时候还是卡，useMemo 和 useCallback 都加了，要不要上虚拟滚动', 'react-render'),
  d('zh', '列表组件每次输入都重新渲染，memo 好像又失效了', 'react-render'),
  d('en', 'Can you write a haiku about autumn leaves falling on a quiet lake?', null),
  d('en', 'Plan a three day trip to Lisbon with a budget for food and museums', null),
  d('en', 'Explain how photosynthesis converts light into chemical energy for a ten year old', null),
  d('en', 'Draft a polite email declining the invitation to speak at the conference in March', null),
  d('en', 'What are good exercises for lower back pain when sitting all day at a desk?', null),
  d('en', 'Translate this recipe for banana bread into metric units and halve the sugar', null),
  d('zh', '帮我写一首关于春天和樱花的短诗，语气轻松一点', null),
  d('zh', '周末想去爬山，附近有什么适合新手的路线推荐', null),
  d('zh', '给我讲讲宋朝的科举制度和现在的高考有什么不同', null),
  d('zh', '家里的绿萝叶子发黄了，应该多久浇一次水', null),
  d('mixed', '帮我把这段 birthday party 邀请写得更正式一点，要中英双语', null),
  d('mixed', '推荐几本适合初学者的 piano 练习曲，最好是古典风格', null),
]
