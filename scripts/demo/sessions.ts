/**
 * The sessions `npm start` seeds into its throwaway home, in the `alpha` and
 * `beta` project folders, in English and Chinese: enough for the `@` menu to
 * list a few sessions per workspace, for `@Title` to meet a Chinese title
 * followed by Chinese text, and for the sidebar rows to have menus.
 */
import type { Home } from '../../dev/home.ts'
import type { SessionSpec } from '../../dev/session-store.ts'

/**
 * The demo sessions, oldest first.
 * @param home - the throwaway home.
 * @returns their specs.
 */
export function demoSessions(home: Home): SessionSpec[] {
  const alpha = home.project('alpha')
  const beta = home.project('beta')
  // Beta first: the newest session's workspace is the one the sidebar opens, and the guide starts in alpha.
  return [
    {
      cwd: beta,
      title: 'Budget review',
      text: 'Review the beta budget: 12k spent of 20k, two months left.',
      reply: 'Budget: 60 % spent with a third of the time left; hold new tooling spend until the next review.',
    },
    {
      cwd: beta,
      title: '市场调研',
      text: '总结这次市场调研的三个发现。',
      reply: '三个发现：用户最看重速度；价格敏感度低于预期；团队版需求在增长。',
    },
    {
      cwd: alpha,
      title: 'Release plan',
      text: 'Draft the release plan for v2: code freeze on Friday, release on Tuesday.',
      reply: 'Release plan for v2: code freeze Friday, QA on Monday, release Tuesday morning. Ana owns the build, Li writes the release notes.',
    },
    {
      cwd: alpha,
      title: '发布计划',
      text: '帮我整理 v2 的发布计划：周五冻结代码，下周二发布。',
      reply: 'v2 发布计划：周五冻结代码，周一测试，周二上午发布。小王负责构建，小李写发布说明。',
    },
    {
      cwd: alpha,
      title: 'Q3 OKR',
      text: 'List our Q3 OKRs: faster onboarding, fewer support tickets.',
      reply: 'Q3 OKRs: 1) onboarding under 5 minutes, 2) support tickets down 20 %, 3) weekly release train.',
    },
    {
      cwd: alpha,
      title: '周会纪要',
      text: '记录本周周会：登录页报错已修复，导出功能延期一周。',
      reply: '周会纪要：登录页报错已修复；导出功能延期一周；下周一复盘发布流程。',
    },
  ]
}
