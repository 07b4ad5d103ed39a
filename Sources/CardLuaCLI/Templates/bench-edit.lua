-- cardlua bench: an edit that changes the output
local benchTransform = transform
function transform(attributes, layout)
  local result = benchTransform and benchTransform(attributes, layout)
  attributes.zIndex = 7
  return result
end
