/** CSS Modules compiled by the build: the default export maps local class names to hashed ones. */
declare module '*.module.css' {
  const classes: Readonly<Record<string, string>>
  export default classes
}
