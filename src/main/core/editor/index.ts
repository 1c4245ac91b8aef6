/** Opening a project file at a line in the user's editor (clickable paths in terminals). */
export { editorLaunchFor } from './editorCommand';
export { resolveProjectFile } from './projectPath';
export { openInEditor, type EditorHost } from './openInEditor';
