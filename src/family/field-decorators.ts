/**
 * Several property decorators as one, applied as if written one above the other (the lowest
 * first), so an input field whose type, description and constraints recur is declared once.
 */
export function allOf(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => {
    for (const decorate of [...decorators].reverse()) decorate(target, key);
  };
}
