/** The stemmer's one export: the Porter2 stem of a lower-case English word. */
declare module 'wink-porter2-stemmer' {
  const stem: (word: string) => string
  export default stem
}
