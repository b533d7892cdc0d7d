import{require_dist}from"./chunk-EQSWMYZT.js";import{HELPERS,RenderError,makeTemplate}from"./chunk-QEY7DS3D.js";import{OperationError}from"./chunk-SHTDRQAJ.js";import{__commonJS,__toESM}from"./chunk-TX362KRZ.js";var require_utils=__commonJS({"node_modules/handlebars/dist/cjs/handlebars/utils.js"(exports){"use strict";exports.__esModule=!0;exports.extend=extend;exports.indexOf=indexOf;exports.escapeExpression=escapeExpression;exports.isEmpty=isEmpty;exports.createFrame=createFrame;exports.blockParams=blockParams;exports.appendContextPath=appendContextPath;var escape={"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;","'":"&#x27;","`":"&#x60;","=":"&#x3D;"},badChars=/[&<>"'`=]/g,possible=/[&<>"'`=]/;function escapeChar(chr){return escape[chr]}function extend(obj){for(var i=1;i<arguments.length;i++)for(var key in arguments[i])Object.prototype.hasOwnProperty.call(arguments[i],key)&&(obj[key]=arguments[i][key]);return obj}var toString=Object.prototype.toString;exports.toString=toString;var isFunction=function(value){return typeof value=="function"};isFunction(/x/)&&(exports.isFunction=isFunction=function(value){return typeof value=="function"&&toString.call(value)==="[object Function]"});exports.isFunction=isFunction;var isArray=Array.isArray||function(value){return value&&typeof value=="object"?toString.call(value)==="[object Array]":!1};exports.isArray=isArray;function indexOf(array,value){for(var i=0,len=array.length;i<len;i++)if(array[i]===value)return i;return-1}function escapeExpression(string){if(typeof string!="string"){if(string&&typeof string.toHTML=="function")return string.toHTML();if(string==null)return"";if(!string)return string+"";string=""+string}return possible.test(string)?string.replace(badChars,escapeChar):string}function isEmpty(value){return!value&&value!==0?!0:!!(isArray(value)&&value.length===0)}function createFrame(object){var frame=extend({},object);return frame._parent=object,frame}function blockParams(params,ids){return params.path=ids,params}function appendContextPath(contextPath,id){return(contextPath?contextPath+".":"")+id}}});var require_exception=__commonJS({"node_modules/handlebars/dist/cjs/handlebars/exception.js"(exports,module){"use strict";exports.__esModule=!0;var errorProps=["description","fileName","lineNumber","endLineNumber","message","name","number","stack"];function Exception(message,node){var loc=node&&node.loc,line=void 0,endLineNumber=void 0,column=void 0,endColumn=void 0;loc&&loc.start&&(line=loc.start.line,column=loc.start.column,loc.end&&(endLineNumber=loc.end.line,endColumn=loc.end.column),message+=" - "+line+":"+column);for(var tmp=Error.prototype.constructor.call(this,message),idx=0;idx<errorProps.length;idx++)this[errorProps[idx]]=tmp[errorProps[idx]];Error.captureStackTrace&&Error.captureStackTrace(this,Exception);try{loc&&(this.lineNumber=line,this.endLineNumber=endLineNumber,Object.defineProperty?(Object.defineProperty(this,"column",{value:column,enumerable:!0}),Object.defineProperty(this,"endColumn",{value:endColumn,enumerable:!0})):(this.column=column,this.endColumn=endColumn))}catch{}}Exception.prototype=new Error;exports.default=Exception;module.exports=exports.default}});var require_block_helper_missing=__commonJS({"node_modules/handlebars/dist/cjs/handlebars/helpers/block-helper-missing.js"(exports,module){"use strict";exports.__esModule=!0;var _utils=require_utils();exports.default=function(instance){instance.registerHelper("blockHelperMissing",function(context,options){var inverse=options.inverse,fn=options.fn;if(context===!0)return fn(this);if(context===!1||context==null)return inverse(this);if(_utils.isArray(context))return context.length>0?(options.ids&&(options.ids=[options.name]),instance.helpers.each(context,options)):inverse(this);if(options.data&&options.ids){var data=_utils.createFrame(options.data);data.contextPath=_utils.appendContextPath(options.data.contextPath,options.name),options={data}}return fn(context,options)})};module.exports=exports.default}});var require_each=__commonJS({"node_modules/handlebars/dist/cjs/handlebars/helpers/each.js"(exports,module){"use strict";exports.__esModule=!0;function _interopRequireDefault(obj){return obj&&obj.__esModule?obj:{default:obj}}var _utils=require_utils(),_exception=require_exception(),_exception2=_interopRequireDefault(_exception);function closeIterator(iterator){try{var _close=iterator.return;_utils.isFunction(_close)&&_close.call(iterator)}catch{}}exports.default=function(instance){instance.registerHelper("each",function(context,options){if(!options)throw new _exception2.default("Must pass iterator to #each");var fn=options.fn,inverse=options.inverse,i=0,ret="",data=void 0,contextPath=void 0;options.data&&options.ids&&(contextPath=_utils.appendContextPath(options.data.contextPath,options.ids[0])+"."),_utils.isFunction(context)&&(context=context.call(this)),options.data&&(data=_utils.createFrame(options.data));function execIteration(field,index,last,value){data&&(data.key=field,data.index=index,data.first=index===0,data.last=!!last,contextPath&&(data.contextPath=contextPath+field)),ret=ret+fn(value,{data,blockParams:_utils.blockParams([value,field],[contextPath+field,null])})}if(context&&typeof context=="object")if(_utils.isArray(context))for(var j=context.length;i<j;i++)i in context&&execIteration(i,i,i===context.length-1,context[i]);else if(typeof Symbol=="function"&&context[Symbol.iterator])for(var iterator=context[Symbol.iterator](),current=iterator.next();!current.done;){var next=iterator.next();try{execIteration(i,i,next.done,current.value)}catch(e){throw next.done||closeIterator(iterator),e}current=next,i++}else(function(){var priorKey=void 0;Object.keys(context).forEach(function(key){priorKey!==void 0&&execIteration(priorKey,i-1,!1,context[priorKey]),priorKey=key,i++}),priorKey!==void 0&&execIteration(priorKey,i-1,!0,context[priorKey])})();return i===0&&(ret=inverse(this)),ret})};module.exports=exports.default}});var require_helper_missing=__commonJS({"node_modules/handlebars/dist/cjs/handlebars/helpers/helper-missing.js"(exports,module){"use strict";exports.__esModule=!0;function _interopRequireDefault(obj){return obj&&obj.__esModule?obj:{default:obj}}var _exception=require_exception(),_exception2=_interopRequireDefault(_exception);exports.default=function(instance){instance.registerHelper("helperMissing",function(){if(arguments.length!==1)throw new _exception2.default('Missing helper: "'+arguments[arguments.length-1].name+'"')})};module.exports=exports.default}});var require_if=__commonJS({"node_modules/handlebars/dist/cjs/handlebars/helpers/if.js"(exports,module){"use strict";exports.__esModule=!0;function _interopRequireDefault(obj){return obj&&obj.__esModule?obj:{default:obj}}var _utils=require_utils(),_exception=require_exception(),_exception2=_interopRequireDefault(_exception);exports.default=function(instance){instance.registerHelper("if",function(conditional,options){if(arguments.length!=2)throw new _exception2.default("#if requires exactly one argument");return _utils.isFunction(conditional)&&(conditional=conditional.call(this)),!options.hash.includeZero&&!conditional||_utils.isEmpty(conditional)?options.inverse(this):options.fn(this)}),instance.registerHelper("unless",function(conditional,options){if(arguments.length!=2)throw new _exception2.default("#unless requires exactly one argument");return instance.helpers.if.call(this,conditional,{fn:options.inverse,inverse:options.fn,hash:options.hash})})};module.exports=exports.default}});var require_log=__commonJS({"node_modules/handlebars/dist/cjs/handlebars/helpers/log.js"(exports,module){"use strict";exports.__esModule=!0;exports.default=function(instance){instance.registerHelper("log",function(){for(var args=[void 0],options=arguments[arguments.length-1],i=0;i<arguments.length-1;i++)args.push(arguments[i]);var level=1;options.hash.level!=null?level=options.hash.level:options.data&&options.data.level!=null&&(level=options.data.level),args[0]=level,instance.log.apply(instance,args)})};module.exports=exports.default}});var require_lookup=__commonJS({"node_modules/handlebars/dist/cjs/handlebars/helpers/lookup.js"(exports,module){"use strict";exports.__esModule=!0;exports.default=function(instance){instance.registerHelper("lookup",function(obj,field,options){return obj&&options.lookupProperty(obj,field)})};module.exports=exports.default}});var require_with=__commonJS({"node_modules/handlebars/dist/cjs/handlebars/helpers/with.js"(exports,module){"use strict";exports.__esModule=!0;function _interopRequireDefault(obj){return obj&&obj.__esModule?obj:{default:obj}}var _utils=require_utils(),_exception=require_exception(),_exception2=_interopRequireDefault(_exception);exports.default=function(instance){instance.registerHelper("with",function(context,options){if(arguments.length!=2)throw new _exception2.default("#with requires exactly one argument");_utils.isFunction(context)&&(context=context.call(this));var fn=options.fn;if(_utils.isEmpty(context))return options.inverse(this);var data=options.data;return options.data&&options.ids&&(data=_utils.createFrame(options.data),data.contextPath=_utils.appendContextPath(options.data.contextPath,options.ids[0])),fn(context,{data,blockParams:_utils.blockParams([context],[data&&data.contextPath])})})};module.exports=exports.default}});var require_helpers=__commonJS({"node_modules/handlebars/dist/cjs/handlebars/helpers.js"(exports){"use strict";exports.__esModule=!0;exports.registerDefaultHelpers=registerDefaultHelpers;exports.moveHelperToHooks=moveHelperToHooks;function _interopRequireDefault(obj){return obj&&obj.__esModule?obj:{default:obj}}var _helpersBlockHelperMissing=require_block_helper_missing(),_helpersBlockHelperMissing2=_interopRequireDefault(_helpersBlockHelperMissing),_helpersEach=require_each(),_helpersEach2=_interopRequireDefault(_helpersEach),_helpersHelperMissing=require_helper_missing(),_helpersHelperMissing2=_interopRequireDefault(_helpersHelperMissing),_helpersIf=require_if(),_helpersIf2=_interopRequireDefault(_helpersIf),_helpersLog=require_log(),_helpersLog2=_interopRequireDefault(_helpersLog),_helpersLookup=require_lookup(),_helpersLookup2=_interopRequireDefault(_helpersLookup),_helpersWith=require_with(),_helpersWith2=_interopRequireDefault(_helpersWith);function registerDefaultHelpers(instance){_helpersBlockHelperMissing2.default(instance),_helpersEach2.default(instance),_helpersHelperMissing2.default(instance),_helpersIf2.default(instance),_helpersLog2.default(instance),_helpersLookup2.default(instance),_helpersWith2.default(instance)}function moveHelperToHooks(instance,helperName,keepHelper){instance.helpers[helperName]&&(instance.hooks[helperName]=instance.helpers[helperName],keepHelper||(instance.helpers[helperName]=void 0))}}});var require_inline=__commonJS({"node_modules/handlebars/dist/cjs/handlebars/decorators/inline.js"(exports,module){"use strict";exports.__esModule=!0;var _utils=require_utils();exports.default=function(instance){instance.registerDecorator("inline",function(fn,props,container,options){var ret=fn;return props.partials||(props.partials={},ret=function(context,options2){var original=container.partials;container.partials=_utils.extend({},original,props.partials);var ret2=fn(context,options2);return container.partials=original,ret2}),props.partials[options.args[0]]=options.fn,ret})};module.exports=exports.default}});var require_decorators=__commonJS({"node_modules/handlebars/dist/cjs/handlebars/decorators.js"(exports){"use strict";exports.__esModule=!0;exports.registerDefaultDecorators=registerDefaultDecorators;function _interopRequireDefault(obj){return obj&&obj.__esModule?obj:{default:obj}}var _decoratorsInline=require_inline(),_decoratorsInline2=_interopRequireDefault(_decoratorsInline);function registerDefaultDecorators(instance){_decoratorsInline2.default(instance)}}});var require_logger=__commonJS({"node_modules/handlebars/dist/cjs/handlebars/logger.js"(exports,module){"use strict";exports.__esModule=!0;var _utils=require_utils(),logger={methodMap:["debug","info","warn","error"],level:"info",lookupLevel:function(level){if(typeof level=="string"){var levelMap=_utils.indexOf(logger.methodMap,level.toLowerCase());levelMap>=0?level=levelMap:level=parseInt(level,10)}return level},log:function(level){if(level=logger.lookupLevel(level),typeof console<"u"&&logger.lookupLevel(logger.level)<=level){var method=logger.methodMap[level];console[method]||(method="log");for(var _len=arguments.length,message=Array(_len>1?_len-1:0),_key=1;_key<_len;_key++)message[_key-1]=arguments[_key];console[method].apply(console,message)}}};exports.default=logger;module.exports=exports.default}});var require_proto_access=__commonJS({"node_modules/handlebars/dist/cjs/handlebars/internal/proto-access.js"(exports){"use strict";exports.__esModule=!0;exports.createProtoAccessControl=createProtoAccessControl;exports.resultIsAllowed=resultIsAllowed;exports.isPrototypeConstructor=isPrototypeConstructor;exports.resetLoggedProperties=resetLoggedProperties;function _interopRequireDefault(obj){return obj&&obj.__esModule?obj:{default:obj}}var _utils=require_utils(),_logger=require_logger(),_logger2=_interopRequireDefault(_logger),loggedProperties=Object.create(null);function createProtoAccessControl(runtimeOptions){var propertyWhiteList=Object.create(null);propertyWhiteList.__proto__=!1,_utils.extend(propertyWhiteList,runtimeOptions.allowedProtoProperties);var methodWhiteList=Object.create(null);return methodWhiteList.constructor=!1,methodWhiteList.__defineGetter__=!1,methodWhiteList.__defineSetter__=!1,methodWhiteList.__lookupGetter__=!1,methodWhiteList.__lookupSetter__=!1,_utils.extend(methodWhiteList,runtimeOptions.allowedProtoMethods),{properties:{whitelist:propertyWhiteList,defaultValue:runtimeOptions.allowProtoPropertiesByDefault},methods:{whitelist:methodWhiteList,defaultValue:runtimeOptions.allowProtoMethodsByDefault}}}function resultIsAllowed(result,protoAccessControl,propertyName){return checkWhiteList(typeof result=="function"?protoAccessControl.methods:protoAccessControl.properties,propertyName)}function isPrototypeConstructor(parent,propertyName,result){return propertyName==="constructor"&&typeof result=="function"&&parent===result.prototype}function checkWhiteList(protoAccessControlForType,propertyName){return protoAccessControlForType.whitelist[propertyName]!==void 0?protoAccessControlForType.whitelist[propertyName]===!0:protoAccessControlForType.defaultValue!==void 0?protoAccessControlForType.defaultValue:(logUnexpecedPropertyAccessOnce(propertyName),!1)}function logUnexpecedPropertyAccessOnce(propertyName){loggedProperties[propertyName]!==!0&&(loggedProperties[propertyName]=!0,_logger2.default.log("error",'Handlebars: Access has been denied to resolve the property "'+propertyName+`" because it is not an "own property" of its parent.
You can add a runtime option to disable the check or this warning:
See https://handlebarsjs.com/api-reference/runtime-options.html#options-to-control-prototype-access for details`))}function resetLoggedProperties(){Object.keys(loggedProperties).forEach(function(propertyName){delete loggedProperties[propertyName]})}}});var require_base=__commonJS({"node_modules/handlebars/dist/cjs/handlebars/base.js"(exports){"use strict";exports.__esModule=!0;exports.HandlebarsEnvironment=HandlebarsEnvironment;function _interopRequireDefault(obj){return obj&&obj.__esModule?obj:{default:obj}}var _utils=require_utils(),_exception=require_exception(),_exception2=_interopRequireDefault(_exception),_helpers=require_helpers(),_decorators=require_decorators(),_logger=require_logger(),_logger2=_interopRequireDefault(_logger),_internalProtoAccess=require_proto_access(),VERSION="4.7.10";exports.VERSION=VERSION;var COMPILER_REVISION=8;exports.COMPILER_REVISION=COMPILER_REVISION;var LAST_COMPATIBLE_COMPILER_REVISION=7;exports.LAST_COMPATIBLE_COMPILER_REVISION=LAST_COMPATIBLE_COMPILER_REVISION;var REVISION_CHANGES={1:"<= 1.0.rc.2",2:"== 1.0.0-rc.3",3:"== 1.0.0-rc.4",4:"== 1.x.x",5:"== 2.0.0-alpha.x",6:">= 2.0.0-beta.1",7:">= 4.0.0 <4.3.0",8:">= 4.3.0"};exports.REVISION_CHANGES=REVISION_CHANGES;var objectType="[object Object]";function HandlebarsEnvironment(helpers,partials,decorators){this.helpers=helpers||{},this.partials=partials||{},this.decorators=decorators||{},_helpers.registerDefaultHelpers(this),_decorators.registerDefaultDecorators(this)}HandlebarsEnvironment.prototype={constructor:HandlebarsEnvironment,logger:_logger2.default,log:_logger2.default.log,registerHelper:function(name,fn){if(_utils.toString.call(name)===objectType){if(fn)throw new _exception2.default("Arg not supported with multiple helpers");_utils.extend(this.helpers,name)}else this.helpers[name]=fn},unregisterHelper:function(name){delete this.helpers[name]},registerPartial:function(name,partial){if(_utils.toString.call(name)===objectType)_utils.extend(this.partials,name);else{if(typeof partial>"u")throw new _exception2.default('Attempting to register a partial called "'+name+'" as undefined');this.partials[name]=partial}},unregisterPartial:function(name){delete this.partials[name]},registerDecorator:function(name,fn){if(_utils.toString.call(name)===objectType){if(fn)throw new _exception2.default("Arg not supported with multiple decorators");_utils.extend(this.decorators,name)}else this.decorators[name]=fn},unregisterDecorator:function(name){delete this.decorators[name]},resetLoggedPropertyAccesses:function(){_internalProtoAccess.resetLoggedProperties()}};var log=_logger2.default.log;exports.log=log;exports.createFrame=_utils.createFrame;exports.logger=_logger2.default}});var require_safe_string=__commonJS({"node_modules/handlebars/dist/cjs/handlebars/safe-string.js"(exports,module){"use strict";exports.__esModule=!0;function SafeString(string){this.string=string}SafeString.prototype.toString=SafeString.prototype.toHTML=function(){return""+this.string};exports.default=SafeString;module.exports=exports.default}});var require_wrapHelper=__commonJS({"node_modules/handlebars/dist/cjs/handlebars/internal/wrapHelper.js"(exports){"use strict";exports.__esModule=!0;exports.wrapHelper=wrapHelper;function wrapHelper(helper,transformOptionsFn){if(typeof helper!="function")return helper;var wrapper=function(){var options=arguments[arguments.length-1];return arguments[arguments.length-1]=transformOptionsFn(options),helper.apply(this,arguments)};return wrapper}}});var require_runtime=__commonJS({"node_modules/handlebars/dist/cjs/handlebars/runtime.js"(exports){"use strict";exports.__esModule=!0;exports.checkRevision=checkRevision;exports.template=template;exports.wrapProgram=wrapProgram;exports.resolvePartial=resolvePartial;exports.invokePartial=invokePartial;exports.noop=noop;function _interopRequireDefault(obj){return obj&&obj.__esModule?obj:{default:obj}}function _interopRequireWildcard(obj){if(obj&&obj.__esModule)return obj;var newObj={};if(obj!=null)for(var key in obj)Object.prototype.hasOwnProperty.call(obj,key)&&(newObj[key]=obj[key]);return newObj.default=obj,newObj}var _utils=require_utils(),Utils=_interopRequireWildcard(_utils),_exception=require_exception(),_exception2=_interopRequireDefault(_exception),_base=require_base(),_helpers=require_helpers(),_internalWrapHelper=require_wrapHelper(),_internalProtoAccess=require_proto_access();function checkRevision(compilerInfo){var compilerRevision=compilerInfo&&compilerInfo[0]||1,currentRevision=_base.COMPILER_REVISION;if(!(compilerRevision>=_base.LAST_COMPATIBLE_COMPILER_REVISION&&compilerRevision<=_base.COMPILER_REVISION))if(compilerRevision<_base.LAST_COMPATIBLE_COMPILER_REVISION){var runtimeVersions=_base.REVISION_CHANGES[currentRevision],compilerVersions=_base.REVISION_CHANGES[compilerRevision];throw new _exception2.default("Template was precompiled with an older version of Handlebars than the current runtime. Please update your precompiler to a newer version ("+runtimeVersions+") or downgrade your runtime to an older version ("+compilerVersions+").")}else throw new _exception2.default("Template was precompiled with a newer version of Handlebars than the current runtime. Please update your runtime to a newer version ("+compilerInfo[1]+").")}function template(templateSpec,env){if(!env)throw new _exception2.default("No environment passed to template");if(!templateSpec||!templateSpec.main)throw new _exception2.default("Unknown template object: "+typeof templateSpec);templateSpec.main.decorator=templateSpec.main_d,env.VM.checkRevision(templateSpec.compiler);var templateWasPrecompiledWithCompilerV7=templateSpec.compiler&&templateSpec.compiler[0]===7;function invokePartialWrapper(partial,context,options){options.hash&&(context=Utils.extend({},context,options.hash),options.ids&&(options.ids[0]=!0)),partial=env.VM.resolvePartial.call(this,partial,context,options),options.hooks=this.hooks,options.protoAccessControl=this.protoAccessControl;var result=env.VM.invokePartial.call(this,partial,context,options);if(result==null&&Utils.isFunction(partial))throw new _exception2.default("The partial "+options.name+" returned no output: partials must return a string");if(result==null&&env.compile){if(typeof partial!="string")throw new _exception2.default("The partial "+options.name+" could not be compiled: partials must be strings or functions returning strings");options.partials[options.name]=env.compile(partial,templateSpec.compilerOptions,env),result=options.partials[options.name](context,options)}if(result!=null){if(options.indent){for(var lines=result.split(`
`),i=0,l=lines.length;i<l&&!(!lines[i]&&i+1===l);i++)lines[i]=options.indent+lines[i];result=lines.join(`
`)}return result}else throw new _exception2.default("The partial "+options.name+" could not be compiled when running in runtime-only mode")}var container={strict:function(obj,name,loc){if(!obj||!(name in obj))throw new _exception2.default('"'+name+'" not defined in '+obj,{loc});return container.lookupProperty(obj,name)},lookupProperty:function(parent,propertyName){var result=parent[propertyName];if(result==null||Object.prototype.hasOwnProperty.call(parent,propertyName)&&!_internalProtoAccess.isPrototypeConstructor(parent,propertyName,result)||_internalProtoAccess.resultIsAllowed(result,container.protoAccessControl,propertyName))return result},lookup:function(depths,name){for(var len=depths.length,i=0;i<len;i++){var result=depths[i]&&container.lookupProperty(depths[i],name);if(result!=null)return result}},lambda:function(current,context){return typeof current=="function"?current.call(context):current},escapeExpression:Utils.escapeExpression,invokePartial:invokePartialWrapper,fn:function(i){var ret2=templateSpec[i];return ret2.decorator=templateSpec[i+"_d"],ret2},programs:[],program:function(i,data,declaredBlockParams,blockParams,depths){var programWrapper=this.programs[i],fn=this.fn(i);return data||depths||blockParams||declaredBlockParams?programWrapper=wrapProgram(this,i,fn,data,declaredBlockParams,blockParams,depths):programWrapper||(programWrapper=this.programs[i]=wrapProgram(this,i,fn)),programWrapper},data:function(value,depth){for(;value&&depth--;)value=value._parent;return value},mergeIfNeeded:function(param,common){var obj=param||common;return param&&common&&param!==common&&(obj=Utils.extend({},common,param)),obj},nullContext:Object.seal({}),noop:env.VM.noop,compilerInfo:templateSpec.compiler};function ret(context){var options=arguments.length<=1||arguments[1]===void 0?{}:arguments[1],data=options.data;ret._setup(options),!options.partial&&templateSpec.useData&&(data=initData(context,data));var depths=void 0,blockParams=templateSpec.useBlockParams?[]:void 0;templateSpec.useDepths&&(options.depths?depths=context!=options.depths[0]?[context].concat(options.depths):options.depths:depths=[context]);function main(context2){return""+templateSpec.main(container,context2,container.helpers,container.partials,data,blockParams,depths)}return main=executeDecorators(templateSpec.main,main,container,options.depths||[],data,blockParams),main(context,options)}return ret.isTop=!0,ret._setup=function(options){if(options.partial)container.protoAccessControl=options.protoAccessControl,container.helpers=options.helpers,container.partials=options.partials,container.decorators=options.decorators,container.hooks=options.hooks;else{var mergedHelpers={};addHelpers(mergedHelpers,env.helpers,container),addHelpers(mergedHelpers,options.helpers,container),container.helpers=mergedHelpers,templateSpec.usePartial&&(container.partials=container.mergeIfNeeded(options.partials,env.partials)),(templateSpec.usePartial||templateSpec.useDecorators)&&(container.decorators=Utils.extend({},env.decorators,options.decorators)),container.hooks={},container.protoAccessControl=_internalProtoAccess.createProtoAccessControl(options);var keepHelperInHelpers=options.allowCallsToHelperMissing||templateWasPrecompiledWithCompilerV7;_helpers.moveHelperToHooks(container,"helperMissing",keepHelperInHelpers),_helpers.moveHelperToHooks(container,"blockHelperMissing",keepHelperInHelpers)}},ret._child=function(i,data,blockParams,depths){if(templateSpec.useBlockParams&&!blockParams)throw new _exception2.default("must pass block params");if(templateSpec.useDepths&&!depths)throw new _exception2.default("must pass parent depths");return wrapProgram(container,i,templateSpec[i],data,0,blockParams,depths)},ret}function wrapProgram(container,i,fn,data,declaredBlockParams,blockParams,depths){function prog(context){var options=arguments.length<=1||arguments[1]===void 0?{}:arguments[1],currentDepths=depths;return depths&&context!=depths[0]&&!(context===container.nullContext&&depths[0]===null)&&(currentDepths=[context].concat(depths)),fn(container,context,container.helpers,container.partials,options.data||data,blockParams&&[options.blockParams].concat(blockParams),currentDepths)}return prog=executeDecorators(fn,prog,container,depths,data,blockParams),prog.program=i,prog.depth=depths?depths.length:0,prog.blockParams=declaredBlockParams||0,prog}function resolvePartial(partial,context,options){return partial?typeof partial!="function"&&!options.name&&(options.name=partial,partial=lookupOwnProperty(options.partials,partial)):options.name==="@partial-block"?partial=lookupOwnProperty(options.data,"partial-block"):partial=lookupOwnProperty(options.partials,options.name),partial}function invokePartial(partial,context,options){var currentPartialBlock=lookupOwnProperty(options.data,"partial-block");options.partial=!0,options.ids&&(options.data.contextPath=options.ids[0]||options.data.contextPath);var partialBlock=void 0;if(options.fn&&options.fn!==noop&&(function(){options.data=_base.createFrame(options.data);var fn=options.fn;partialBlock=options.data["partial-block"]=function(context2){var options2=arguments.length<=1||arguments[1]===void 0?{}:arguments[1];return options2.data=_base.createFrame(options2.data),options2.data["partial-block"]=currentPartialBlock,fn(context2,options2)},fn.partials&&(options.partials=Utils.extend({},options.partials,fn.partials))})(),partial===void 0&&partialBlock&&(partial=partialBlock),partial===void 0)throw new _exception2.default("The partial "+options.name+" could not be found");if(partial instanceof Function)return partial(context,options)}function noop(){return""}function lookupOwnProperty(obj,name){if(obj&&Object.prototype.hasOwnProperty.call(obj,name))return obj[name]}function initData(context,data){return(!data||!("root"in data))&&(data=data?_base.createFrame(data):{},data.root=context),data}function executeDecorators(fn,prog,container,depths,data,blockParams){if(fn.decorator){var props={};prog=fn.decorator(prog,props,container,depths&&depths[0],data,blockParams,depths),Utils.extend(prog,props)}return prog}function addHelpers(mergedHelpers,helpers,container){helpers&&Object.keys(helpers).forEach(function(helperName){var helper=helpers[helperName];mergedHelpers[helperName]=passLookupPropertyOption(helper,container)})}function passLookupPropertyOption(helper,container){var lookupProperty=container.lookupProperty;return _internalWrapHelper.wrapHelper(helper,function(options){return options.lookupProperty=lookupProperty,options})}}});var require_no_conflict=__commonJS({"node_modules/handlebars/dist/cjs/handlebars/no-conflict.js"(exports,module){"use strict";exports.__esModule=!0;exports.default=function(Handlebars){(function(){typeof globalThis!="object"&&(Object.prototype.__defineGetter__("__magic__",function(){return this}),__magic__.globalThis=__magic__,delete Object.prototype.__magic__)})();var $Handlebars=globalThis.Handlebars;Handlebars.noConflict=function(){return globalThis.Handlebars===Handlebars&&(globalThis.Handlebars=$Handlebars),Handlebars}};module.exports=exports.default}});var require_handlebars_runtime=__commonJS({"node_modules/handlebars/dist/cjs/handlebars.runtime.js"(exports,module){"use strict";exports.__esModule=!0;function _interopRequireDefault(obj){return obj&&obj.__esModule?obj:{default:obj}}function _interopRequireWildcard(obj){if(obj&&obj.__esModule)return obj;var newObj={};if(obj!=null)for(var key in obj)Object.prototype.hasOwnProperty.call(obj,key)&&(newObj[key]=obj[key]);return newObj.default=obj,newObj}var _handlebarsBase=require_base(),base=_interopRequireWildcard(_handlebarsBase),_handlebarsSafeString=require_safe_string(),_handlebarsSafeString2=_interopRequireDefault(_handlebarsSafeString),_handlebarsException=require_exception(),_handlebarsException2=_interopRequireDefault(_handlebarsException),_handlebarsUtils=require_utils(),Utils=_interopRequireWildcard(_handlebarsUtils),_handlebarsRuntime=require_runtime(),runtime=_interopRequireWildcard(_handlebarsRuntime),_handlebarsNoConflict=require_no_conflict(),_handlebarsNoConflict2=_interopRequireDefault(_handlebarsNoConflict);function create(){var hb2=new base.HandlebarsEnvironment;return Utils.extend(hb2,base),hb2.SafeString=_handlebarsSafeString2.default,hb2.Exception=_handlebarsException2.default,hb2.Utils=Utils,hb2.escapeExpression=Utils.escapeExpression,hb2.VM=runtime,hb2.template=function(spec){return runtime.template(spec,hb2)},hb2}var inst=create();inst.create=create;_handlebarsNoConflict2.default(inst);inst.default=inst;exports.default=inst;module.exports=exports.default}});var require_runtime2=__commonJS({"node_modules/handlebars/runtime.js"(exports,module){module.exports=require_handlebars_runtime().default}});var import_yaml=__toESM(require_dist(),1);import{isDeepStrictEqual}from"node:util";function objectKey(o){return[o.kind,o.metadata.namespace,o.metadata.name].filter(Boolean).join("/")}function parseDocuments(text,source){let problems=[],out=[];if((0,import_yaml.parseAllDocuments)(text).forEach((doc,i)=>{let where=`${source} document ${i+1}`;if(doc.errors.length){for(let e of doc.errors)problems.push(`${where}: ${e.message.split(`
`)[0]}`);return}let o=doc.toJS();if(o==null)return;if(typeof o!="object"||Array.isArray(o)){problems.push(`${where}: is not a mapping`);return}let meta=o.metadata;for(let[key,v]of[["apiVersion",o.apiVersion],["kind",o.kind],["metadata.name",meta?.name]])(typeof v!="string"||v==="")&&problems.push(`${where}${typeof o.kind=="string"?` (${o.kind})`:""}: ${key} is missing`);out.push(o)}),problems.length)throw new RenderError(`${source} does not hold valid Kubernetes objects`,problems.sort());return out}function stringifyDocument(o){return`---
${(0,import_yaml.stringify)(o,{lineWidth:0,aliasDuplicateObjects:!1})}`}var known=new WeakMap;function rememberDocument(o,as,text){known.set(o,{as,text})}function stringifyDocuments(objects){return objects.map(o=>{let k=typeof o=="object"&&o!==null?known.get(o):void 0;return k&&isDeepStrictEqual(o,k.as)?k.text:stringifyDocument(o)}).join("")}function findObject(objects,kind,name,namespace){return objects.find(o=>o.kind===kind&&o.metadata.name===name&&(namespace===void 0||o.metadata.namespace===namespace))}var isMap=v=>typeof v=="object"&&v!==null&&!Array.isArray(v);function mergePatch(target,patch){if(!isMap(patch))return patch;let base=isMap(target)?{...target}:{};for(let[k,v]of Object.entries(patch))base[k]=isMap(v)?mergePatch(base[k],v):v;return base}function applyPatches(objects,patches,source){let missing2=patches.filter(p=>!findObject(objects,p.kind,p.metadata.name,p.metadata.namespace)).map(objectKey);if(missing2.length)throw new RenderError(`${source}: patch targets not found in the manifest`,missing2.sort());return objects.map(o=>patches.filter(p=>p.kind===o.kind&&p.metadata.name===o.metadata.name&&p.metadata.namespace===o.metadata.namespace).reduce((acc,p)=>mergePatch(acc,p),o))}import{readFileSync}from"node:fs";var TEMPLATES={"addons/calico.yaml.hbs":{variables:["crds","images","podCidr","vethMtu"],spec:{0:function(container,depth0,helpers,partials,data){var stack1,alias1=container.strict,alias2=container.lambda;return`---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: `+((stack1=alias2(alias1(depth0,"plural",{start:{line:11,column:10},end:{line:11,column:21}}),depth0))!=null?stack1:"")+`.crd.projectcalico.org
spec:
  group: crd.projectcalico.org
  scope: `+((stack1=alias2(alias1(depth0,"scope",{start:{line:14,column:11},end:{line:14,column:21}}),depth0))!=null?stack1:"")+`
  names:
    kind: `+((stack1=alias2(alias1(depth0,"kind",{start:{line:16,column:12},end:{line:16,column:21}}),depth0))!=null?stack1:"")+`
    listKind: `+((stack1=alias2(alias1(depth0,"kind",{start:{line:17,column:16},end:{line:17,column:25}}),depth0))!=null?stack1:"")+`List
    plural: `+((stack1=alias2(alias1(depth0,"plural",{start:{line:18,column:14},end:{line:18,column:25}}),depth0))!=null?stack1:"")+`
    singular: `+((stack1=alias2(alias1(depth0,"singular",{start:{line:19,column:16},end:{line:19,column:29}}),depth0))!=null?stack1:"")+`
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          x-kubernetes-preserve-unknown-fields: true
`},compiler:[8,">= 4.3.0"],main:function(container,depth0,helpers,partials,data){var stack1,alias1=depth0??(container.nullContext||{}),alias2=container.strict,lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return((stack1=lookupProperty(helpers,"each").call(alias1,lookupProperty(depth0,"crds"),{name:"each",hash:{},fn:container.program(0,data,0),inverse:container.noop,data,loc:{start:{line:6,column:0},end:{line:28,column:9}}}))!=null?stack1:"")+`---
kind: ConfigMap
apiVersion: v1
metadata:
  name: calico-config
  namespace: kube-system
data:
  typha_service_name: none
  calico_backend: bird
  # 0 = calico detects the MTU from the node's interface (the mtu setting overrides it).
  veth_mtu: `+((stack1=(lookupProperty(helpers,"json")||alias2(depth0,"json",{start:{line:39,column:14},end:{line:39,column:18}})).call(alias1,lookupProperty(depth0,"vethMtu"),{name:"json",hash:{},data,loc:{start:{line:39,column:12},end:{line:39,column:28}}}))!=null?stack1:"")+`
  cni_network_config: |-
    {
      "name": "k8s-pod-network",
      "cniVersion": "0.3.1",
      "plugins": [
        {
          "type": "calico",
          "log_level": "info",
          "log_file_path": "/var/log/calico/cni/cni.log",
          "datastore_type": "kubernetes",
          "nodename": "__KUBERNETES_NODE_NAME__",
          "mtu": __CNI_MTU__,
          "ipam": { "type": "calico-ipam" },
          "policy": { "type": "k8s" },
          "kubernetes": { "kubeconfig": "__KUBECONFIG_FILEPATH__" }
        },
        { "type": "portmap", "snat": true, "capabilities": { "portMappings": true } },
        { "type": "bandwidth", "capabilities": { "bandwidth": true } }
      ]
    }
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: calico-node
  namespace: kube-system
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: calico-cni-plugin
  namespace: kube-system
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: calico-kube-controllers
  namespace: kube-system
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: calico-node
rules:
  - apiGroups: [""]
    resources: [pods, nodes, namespaces, configmaps, endpoints, services, serviceaccounts]
    verbs: [get, list, watch]
  - apiGroups: [""]
    resources: [nodes/status, pods/status]
    verbs: [patch, update]
  - apiGroups: [""]
    resources: [serviceaccounts/token]
    resourceNames: [calico-cni-plugin]
    verbs: [create]
  - apiGroups: [discovery.k8s.io]
    resources: [endpointslices]
    verbs: [watch, list]
  - apiGroups: [networking.k8s.io]
    resources: [networkpolicies]
    verbs: [watch, list]
  - apiGroups: [policy.networking.k8s.io]
    resources: [adminnetworkpolicies]
    verbs: [watch, list]
  - apiGroups: [crd.projectcalico.org]
    resources: ["*"]
    verbs: [get, list, watch, create, update, delete, patch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: calico-cni-plugin
rules:
  - apiGroups: [""]
    resources: [pods, nodes, namespaces]
    verbs: [get]
  - apiGroups: [""]
    resources: [pods/status]
    verbs: [patch]
  - apiGroups: [crd.projectcalico.org]
    resources: [blockaffinities, ipamblocks, ipamhandles, clusterinformations, ippools, ipreservations, ipamconfigs]
    verbs: [get, list, create, update, delete]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: calico-kube-controllers
rules:
  - apiGroups: [""]
    resources: [nodes, pods, namespaces, serviceaccounts]
    verbs: [get, list, watch]
  - apiGroups: [networking.k8s.io]
    resources: [networkpolicies]
    verbs: [watch, list]
  - apiGroups: [crd.projectcalico.org]
    resources: ["*"]
    verbs: [get, list, watch, create, update, delete]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: calico-node
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: calico-node }
subjects: [{ kind: ServiceAccount, name: calico-node, namespace: kube-system }]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: calico-cni-plugin
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: calico-cni-plugin }
subjects: [{ kind: ServiceAccount, name: calico-cni-plugin, namespace: kube-system }]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: calico-kube-controllers
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: calico-kube-controllers }
subjects: [{ kind: ServiceAccount, name: calico-kube-controllers, namespace: kube-system }]
---
kind: DaemonSet
apiVersion: apps/v1
metadata:
  name: calico-node
  namespace: kube-system
  labels:
    k8s-app: calico-node
spec:
  selector:
    matchLabels:
      k8s-app: calico-node
  updateStrategy:
    type: RollingUpdate
    rollingUpdate:
      maxUnavailable: 1
  template:
    metadata:
      labels:
        k8s-app: calico-node
    spec:
      nodeSelector:
        kubernetes.io/os: linux
      hostNetwork: true
      tolerations:
        - effect: NoSchedule
          operator: Exists
        - key: CriticalAddonsOnly
          operator: Exists
        - effect: NoExecute
          operator: Exists
      serviceAccountName: calico-node
      terminationGracePeriodSeconds: 0
      priorityClassName: system-node-critical
      initContainers:
        - name: upgrade-ipam
          image: `+((stack1=(lookupProperty(helpers,"json")||alias2(depth0,"json",{start:{line:193,column:19},end:{line:193,column:23}})).call(alias1,lookupProperty(lookupProperty(depth0,"images"),"cni"),{name:"json",hash:{},data,loc:{start:{line:193,column:17},end:{line:193,column:36}}}))!=null?stack1:"")+`
          command: [/opt/cni/bin/calico-ipam, -upgrade]
          envFrom:
            - configMapRef: { name: kubernetes-services-endpoint, optional: true }
          env:
            - name: KUBERNETES_NODE_NAME
              valueFrom: { fieldRef: { fieldPath: spec.nodeName } }
            - name: CALICO_NETWORKING_BACKEND
              valueFrom: { configMapKeyRef: { name: calico-config, key: calico_backend } }
          volumeMounts:
            - { mountPath: /var/lib/cni/networks, name: host-local-net-dir }
            - { mountPath: /host/opt/cni/bin, name: cni-bin-dir }
          securityContext: { privileged: true }
        - name: install-cni
          image: `+((stack1=(lookupProperty(helpers,"json")||alias2(depth0,"json",{start:{line:207,column:19},end:{line:207,column:23}})).call(alias1,lookupProperty(lookupProperty(depth0,"images"),"cni"),{name:"json",hash:{},data,loc:{start:{line:207,column:17},end:{line:207,column:36}}}))!=null?stack1:"")+`
          command: [/opt/cni/bin/install]
          envFrom:
            - configMapRef: { name: kubernetes-services-endpoint, optional: true }
          env:
            - { name: CNI_CONF_NAME, value: 10-calico.conflist }
            - name: CNI_NETWORK_CONFIG
              valueFrom: { configMapKeyRef: { name: calico-config, key: cni_network_config } }
            - name: KUBERNETES_NODE_NAME
              valueFrom: { fieldRef: { fieldPath: spec.nodeName } }
            - name: CNI_MTU
              valueFrom: { configMapKeyRef: { name: calico-config, key: veth_mtu } }
            - { name: SLEEP, value: "false" }
          volumeMounts:
            - { mountPath: /host/opt/cni/bin, name: cni-bin-dir }
            - { mountPath: /host/etc/cni/net.d, name: cni-net-dir }
          securityContext: { privileged: true }
        - name: mount-bpffs
          image: `+((stack1=(lookupProperty(helpers,"json")||alias2(depth0,"json",{start:{line:225,column:19},end:{line:225,column:23}})).call(alias1,lookupProperty(lookupProperty(depth0,"images"),"node"),{name:"json",hash:{},data,loc:{start:{line:225,column:17},end:{line:225,column:37}}}))!=null?stack1:"")+`
          command: [calico-node, -init, -best-effort]
          volumeMounts:
            - { mountPath: /sys/fs, name: sys-fs, mountPropagation: Bidirectional }
            - { mountPath: /var/run/calico, name: var-run-calico, mountPropagation: Bidirectional }
            - { mountPath: /nodeproc, name: nodeproc, readOnly: true }
          securityContext: { privileged: true }
      containers:
        - name: calico-node
          image: `+((stack1=(lookupProperty(helpers,"json")||alias2(depth0,"json",{start:{line:234,column:19},end:{line:234,column:23}})).call(alias1,lookupProperty(lookupProperty(depth0,"images"),"node"),{name:"json",hash:{},data,loc:{start:{line:234,column:17},end:{line:234,column:37}}}))!=null?stack1:"")+`
          envFrom:
            - configMapRef: { name: kubernetes-services-endpoint, optional: true }
          env:
            - { name: DATASTORE_TYPE, value: kubernetes }
            - { name: WAIT_FOR_DATASTORE, value: "true" }
            - name: NODENAME
              valueFrom: { fieldRef: { fieldPath: spec.nodeName } }
            - name: CALICO_NETWORKING_BACKEND
              valueFrom: { configMapKeyRef: { name: calico-config, key: calico_backend } }
            - { name: CLUSTER_TYPE, value: "k8s,bgp" }
            - { name: IP, value: autodetect }
            - { name: CALICO_IPV4POOL_IPIP, value: Always }
            - { name: CALICO_IPV4POOL_VXLAN, value: Never }
            - { name: CALICO_IPV6POOL_VXLAN, value: Never }
            - { name: CALICO_IPV4POOL_CIDR, value: `+((stack1=(lookupProperty(helpers,"json")||alias2(depth0,"json",{start:{line:249,column:53},end:{line:249,column:57}})).call(alias1,lookupProperty(depth0,"podCidr"),{name:"json",hash:{},data,loc:{start:{line:249,column:51},end:{line:249,column:67}}}))!=null?stack1:"")+` }
            - name: FELIX_IPINIPMTU
              valueFrom: { configMapKeyRef: { name: calico-config, key: veth_mtu } }
            - name: FELIX_VXLANMTU
              valueFrom: { configMapKeyRef: { name: calico-config, key: veth_mtu } }
            - name: FELIX_WIREGUARDMTU
              valueFrom: { configMapKeyRef: { name: calico-config, key: veth_mtu } }
            - { name: CALICO_DISABLE_FILE_LOGGING, value: "true" }
            - { name: FELIX_DEFAULTENDPOINTTOHOSTACTION, value: ACCEPT }
            - { name: FELIX_IPV6SUPPORT, value: "false" }
            - { name: FELIX_HEALTHENABLED, value: "true" }
          securityContext: { privileged: true }
          resources:
            requests: { cpu: 250m }
          lifecycle:
            preStop:
              exec: { command: [/bin/calico-node, -shutdown] }
          livenessProbe:
            exec: { command: [/bin/calico-node, -felix-live, -bird-live] }
            periodSeconds: 10
            initialDelaySeconds: 10
            failureThreshold: 6
            timeoutSeconds: 10
          readinessProbe:
            exec: { command: [/bin/calico-node, -felix-ready, -bird-ready] }
            periodSeconds: 10
            timeoutSeconds: 10
          volumeMounts:
            - { mountPath: /host/etc/cni/net.d, name: cni-net-dir, readOnly: false }
            - { mountPath: /lib/modules, name: lib-modules, readOnly: true }
            - { mountPath: /run/xtables.lock, name: xtables-lock, readOnly: false }
            - { mountPath: /var/run/calico, name: var-run-calico, readOnly: false }
            - { mountPath: /var/lib/calico, name: var-lib-calico, readOnly: false }
            - { name: policysync, mountPath: /var/run/nodeagent }
            - { name: bpffs, mountPath: /sys/fs/bpf }
            - { name: cni-log-dir, mountPath: /var/log/calico/cni, readOnly: true }
      volumes:
        - { name: lib-modules, hostPath: { path: /lib/modules } }
        - { name: var-run-calico, hostPath: { path: /var/run/calico, type: DirectoryOrCreate } }
        - { name: var-lib-calico, hostPath: { path: /var/lib/calico, type: DirectoryOrCreate } }
        - { name: xtables-lock, hostPath: { path: /run/xtables.lock, type: FileOrCreate } }
        - { name: sys-fs, hostPath: { path: /sys/fs/, type: DirectoryOrCreate } }
        - { name: bpffs, hostPath: { path: /sys/fs/bpf, type: Directory } }
        - { name: nodeproc, hostPath: { path: /proc } }
        - { name: cni-bin-dir, hostPath: { path: /opt/cni/bin, type: DirectoryOrCreate } }
        - { name: cni-net-dir, hostPath: { path: /etc/cni/net.d } }
        - { name: cni-log-dir, hostPath: { path: /var/log/calico/cni } }
        - { name: host-local-net-dir, hostPath: { path: /var/lib/cni/networks } }
        - { name: policysync, hostPath: { type: DirectoryOrCreate, path: /var/run/nodeagent } }
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: calico-kube-controllers
  namespace: kube-system
  labels:
    k8s-app: calico-kube-controllers
spec:
  replicas: 1
  selector:
    matchLabels:
      k8s-app: calico-kube-controllers
  strategy:
    type: Recreate
  template:
    metadata:
      name: calico-kube-controllers
      namespace: kube-system
      labels:
        k8s-app: calico-kube-controllers
    spec:
      nodeSelector:
        kubernetes.io/os: linux
      tolerations:
        - key: CriticalAddonsOnly
          operator: Exists
        - key: node-role.kubernetes.io/master
          effect: NoSchedule
        - key: node-role.kubernetes.io/control-plane
          effect: NoSchedule
      serviceAccountName: calico-kube-controllers
      priorityClassName: system-cluster-critical
      containers:
        - name: calico-kube-controllers
          image: `+((stack1=(lookupProperty(helpers,"json")||alias2(depth0,"json",{start:{line:333,column:19},end:{line:333,column:23}})).call(alias1,lookupProperty(lookupProperty(depth0,"images"),"kubeControllers"),{name:"json",hash:{},data,loc:{start:{line:333,column:17},end:{line:333,column:48}}}))!=null?stack1:"")+`
          env:
            - { name: ENABLED_CONTROLLERS, value: node }
            - { name: DATASTORE_TYPE, value: kubernetes }
          livenessProbe:
            exec: { command: [/usr/bin/check-status, -l] }
            periodSeconds: 10
            initialDelaySeconds: 10
            failureThreshold: 6
            timeoutSeconds: 10
          readinessProbe:
            exec: { command: [/usr/bin/check-status, -r] }
            periodSeconds: 10
`},useData:!0}},"addons/cinder-csi.yaml.hbs":{variables:["cloudConfigHash","cluster","flags","image","images"],spec:{0:function(container,depth0,helpers,partials,data){var stack1,lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return"            - "+((stack1=(lookupProperty(helpers,"json")||container.strict(depth0,"json",{start:{line:155,column:16},end:{line:155,column:20}})).call(depth0??(container.nullContext||{}),depth0,{name:"json",hash:{},data,loc:{start:{line:155,column:14},end:{line:155,column:27}}}))!=null?stack1:"")+`
`},compiler:[8,">= 4.3.0"],main:function(container,depth0,helpers,partials,data){var stack1,alias1=container.strict,alias2=depth0??(container.nullContext||{}),lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return`apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata:
  name: cinder.csi.openstack.org
spec:
  attachRequired: true
  podInfoOnMount: true
  volumeLifecycleModes: [Persistent, Ephemeral]
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: cinder-default
  annotations:
    storageclass.kubernetes.io/is-default-class: "true"
provisioner: cinder.csi.openstack.org
allowVolumeExpansion: true
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: csi-cinder-controller-sa
  namespace: kube-system
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: csi-cinder-node-sa
  namespace: kube-system
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: csi-cinder-controller
rules:
  - apiGroups: [""]
    resources: [persistentvolumes]
    verbs: [get, list, watch, create, delete, patch, update]
  - apiGroups: [""]
    resources: [persistentvolumeclaims]
    verbs: [get, list, watch, update]
  - apiGroups: [""]
    resources: [persistentvolumeclaims/status]
    verbs: [patch]
  - apiGroups: [""]
    resources: [nodes, pods]
    verbs: [get, list, watch]
  - apiGroups: [""]
    resources: [events]
    verbs: [list, watch, create, update, patch]
  - apiGroups: [""]
    resources: [secrets]
    verbs: [get, list]
  - apiGroups: [storage.k8s.io]
    resources: [storageclasses, csinodes]
    verbs: [get, list, watch]
  - apiGroups: [storage.k8s.io]
    resources: [volumeattachments]
    verbs: [get, list, watch, patch]
  - apiGroups: [storage.k8s.io]
    resources: [volumeattachments/status]
    verbs: [patch]
  - apiGroups: [coordination.k8s.io]
    resources: [leases]
    verbs: [get, watch, list, delete, update, create]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: csi-cinder-controller
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: csi-cinder-controller
subjects:
  - kind: ServiceAccount
    name: csi-cinder-controller-sa
    namespace: kube-system
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: csi-cinder-node
rules:
  - apiGroups: [""]
    resources: [events]
    verbs: [get, list, watch, create, update, patch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: csi-cinder-node
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: csi-cinder-node
subjects:
  - kind: ServiceAccount
    name: csi-cinder-node-sa
    namespace: kube-system
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: csi-cinder-controllerplugin
  namespace: kube-system
spec:
  replicas: 1
  selector:
    matchLabels:
      app: csi-cinder-controllerplugin
  template:
    metadata:
      labels:
        app: csi-cinder-controllerplugin
      annotations:
        kaas.dev/cloud-config-hash: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:123,column:38},end:{line:123,column:42}})).call(alias2,lookupProperty(depth0,"cloudConfigHash"),{name:"json",hash:{},data,loc:{start:{line:123,column:36},end:{line:123,column:60}}}))!=null?stack1:"")+`
    spec:
      serviceAccountName: csi-cinder-controller-sa
      containers:
        - name: csi-attacher
          image: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:128,column:19},end:{line:128,column:23}})).call(alias2,lookupProperty(lookupProperty(depth0,"images"),"attacher"),{name:"json",hash:{},data,loc:{start:{line:128,column:17},end:{line:128,column:41}}}))!=null?stack1:"")+`
          args: [--csi-address=$(ADDRESS), --timeout=3m, --leader-election=true, --default-fstype=ext4]
          env: [{ name: ADDRESS, value: /var/lib/csi/sockets/pluginproxy/csi.sock }]
          volumeMounts: [{ name: socket-dir, mountPath: /var/lib/csi/sockets/pluginproxy/ }]
        - name: csi-provisioner
          image: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:133,column:19},end:{line:133,column:23}})).call(alias2,lookupProperty(lookupProperty(depth0,"images"),"provisioner"),{name:"json",hash:{},data,loc:{start:{line:133,column:17},end:{line:133,column:44}}}))!=null?stack1:"")+`
          args: [--csi-address=$(ADDRESS), --timeout=3m, --default-fstype=ext4, --feature-gates=Topology=true, --extra-create-metadata, --leader-election=true]
          env: [{ name: ADDRESS, value: /var/lib/csi/sockets/pluginproxy/csi.sock }]
          volumeMounts: [{ name: socket-dir, mountPath: /var/lib/csi/sockets/pluginproxy/ }]
        - name: csi-resizer
          image: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:138,column:19},end:{line:138,column:23}})).call(alias2,lookupProperty(lookupProperty(depth0,"images"),"resizer"),{name:"json",hash:{},data,loc:{start:{line:138,column:17},end:{line:138,column:40}}}))!=null?stack1:"")+`
          args: [--csi-address=$(ADDRESS), --timeout=3m, --handle-volume-inuse-error=false, --leader-election=true]
          env: [{ name: ADDRESS, value: /var/lib/csi/sockets/pluginproxy/csi.sock }]
          volumeMounts: [{ name: socket-dir, mountPath: /var/lib/csi/sockets/pluginproxy/ }]
        - name: liveness-probe
          image: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:143,column:19},end:{line:143,column:23}})).call(alias2,lookupProperty(lookupProperty(depth0,"images"),"livenessProbe"),{name:"json",hash:{},data,loc:{start:{line:143,column:17},end:{line:143,column:46}}}))!=null?stack1:"")+`
          args: [--csi-address=$(ADDRESS)]
          env: [{ name: ADDRESS, value: /var/lib/csi/sockets/pluginproxy/csi.sock }]
          volumeMounts: [{ name: socket-dir, mountPath: /var/lib/csi/sockets/pluginproxy/ }]
        - name: cinder-csi-plugin
          image: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:148,column:19},end:{line:148,column:23}})).call(alias2,lookupProperty(depth0,"image"),{name:"json",hash:{},data,loc:{start:{line:148,column:17},end:{line:148,column:31}}}))!=null?stack1:"")+`
          args:
            - /bin/cinder-csi-plugin
            - --endpoint=$(CSI_ENDPOINT)
            - --cloud-config=$(CLOUD_CONFIG)
            - --cluster=$(CLUSTER_NAME)
`+((stack1=lookupProperty(helpers,"each").call(alias2,lookupProperty(lookupProperty(depth0,"flags"),"controller"),{name:"each",hash:{},fn:container.program(0,data,0),inverse:container.noop,data,loc:{start:{line:154,column:0},end:{line:156,column:9}}}))!=null?stack1:"")+`            - --v=1
          env:
            - { name: CSI_ENDPOINT, value: "unix://csi/csi.sock" }
            - { name: CLOUD_CONFIG, value: /etc/config/cloud.conf }
            - { name: CLUSTER_NAME, value: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:161,column:45},end:{line:161,column:49}})).call(alias2,lookupProperty(depth0,"cluster"),{name:"json",hash:{},data,loc:{start:{line:161,column:43},end:{line:161,column:59}}}))!=null?stack1:"")+` }
          ports: [{ containerPort: 9808, name: healthz, protocol: TCP }]
          livenessProbe:
            failureThreshold: 5
            httpGet: { path: /healthz, port: healthz }
            initialDelaySeconds: 10
            timeoutSeconds: 10
            periodSeconds: 60
          volumeMounts:
            - { name: socket-dir, mountPath: /csi }
            - { name: secret-cinderplugin, mountPath: /etc/config, readOnly: true }
      volumes:
        - { name: socket-dir, emptyDir: {} }
        - { name: secret-cinderplugin, secret: { secretName: cloud-config } }
---
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: csi-cinder-nodeplugin
  namespace: kube-system
spec:
  selector:
    matchLabels:
      app: csi-cinder-nodeplugin
  template:
    metadata:
      labels:
        app: csi-cinder-nodeplugin
      annotations:
        kaas.dev/cloud-config-hash: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:190,column:38},end:{line:190,column:42}})).call(alias2,lookupProperty(depth0,"cloudConfigHash"),{name:"json",hash:{},data,loc:{start:{line:190,column:36},end:{line:190,column:60}}}))!=null?stack1:"")+`
    spec:
      tolerations: [{ operator: Exists }]
      serviceAccountName: csi-cinder-node-sa
      hostNetwork: true
      containers:
        - name: node-driver-registrar
          image: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:197,column:19},end:{line:197,column:23}})).call(alias2,lookupProperty(lookupProperty(depth0,"images"),"nodeDriverRegistrar"),{name:"json",hash:{},data,loc:{start:{line:197,column:17},end:{line:197,column:52}}}))!=null?stack1:"")+`
          args: [--csi-address=$(ADDRESS), --kubelet-registration-path=$(DRIVER_REG_SOCK_PATH)]
          env:
            - { name: ADDRESS, value: /csi/csi.sock }
            - { name: DRIVER_REG_SOCK_PATH, value: /var/lib/kubelet/plugins/cinder.csi.openstack.org/csi.sock }
          volumeMounts:
            - { name: socket-dir, mountPath: /csi }
            - { name: registration-dir, mountPath: /registration }
        - name: liveness-probe
          image: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:206,column:19},end:{line:206,column:23}})).call(alias2,lookupProperty(lookupProperty(depth0,"images"),"livenessProbe"),{name:"json",hash:{},data,loc:{start:{line:206,column:17},end:{line:206,column:46}}}))!=null?stack1:"")+`
          args: [--csi-address=/csi/csi.sock]
          volumeMounts: [{ name: socket-dir, mountPath: /csi }]
        - name: cinder-csi-plugin
          image: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:210,column:19},end:{line:210,column:23}})).call(alias2,lookupProperty(depth0,"image"),{name:"json",hash:{},data,loc:{start:{line:210,column:17},end:{line:210,column:31}}}))!=null?stack1:"")+`
          securityContext:
            privileged: true
            capabilities: { add: [SYS_ADMIN] }
            allowPrivilegeEscalation: true
          args:
            - /bin/cinder-csi-plugin
            - --endpoint=$(CSI_ENDPOINT)
            - --cloud-config=$(CLOUD_CONFIG)
`+((stack1=lookupProperty(helpers,"each").call(alias2,lookupProperty(lookupProperty(depth0,"flags"),"node"),{name:"each",hash:{},fn:container.program(0,data,0),inverse:container.noop,data,loc:{start:{line:219,column:0},end:{line:221,column:9}}}))!=null?stack1:"")+`            - --v=1
          env:
            - { name: CSI_ENDPOINT, value: "unix://csi/csi.sock" }
            - { name: CLOUD_CONFIG, value: /etc/config/cloud.conf }
          ports: [{ containerPort: 9808, name: healthz, protocol: TCP }]
          livenessProbe:
            failureThreshold: 5
            httpGet: { path: /healthz, port: healthz }
            initialDelaySeconds: 10
            timeoutSeconds: 3
            periodSeconds: 10
          volumeMounts:
            - { name: socket-dir, mountPath: /csi }
            - { name: kubelet-dir, mountPath: /var/lib/kubelet, mountPropagation: Bidirectional }
            - { name: pods-probe-dir, mountPath: /dev, mountPropagation: HostToContainer }
            - { name: secret-cinderplugin, mountPath: /etc/config, readOnly: true }
      volumes:
        - { name: socket-dir, hostPath: { path: /var/lib/kubelet/plugins/cinder.csi.openstack.org, type: DirectoryOrCreate } }
        - { name: registration-dir, hostPath: { path: /var/lib/kubelet/plugins_registry/, type: Directory } }
        - { name: kubelet-dir, hostPath: { path: /var/lib/kubelet, type: Directory } }
        - { name: pods-probe-dir, hostPath: { path: /dev, type: Directory } }
        - { name: secret-cinderplugin, secret: { secretName: cloud-config } }
`},useData:!0}},"addons/metrics-server.yaml.hbs":{variables:["image"],spec:{compiler:[8,">= 4.3.0"],main:function(container,depth0,helpers,partials,data){var stack1,lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return`apiVersion: v1
kind: ServiceAccount
metadata:
  name: metrics-server
  namespace: kube-system
  labels:
    k8s-app: metrics-server
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: system:aggregated-metrics-reader
  labels:
    k8s-app: metrics-server
    rbac.authorization.k8s.io/aggregate-to-admin: "true"
    rbac.authorization.k8s.io/aggregate-to-edit: "true"
    rbac.authorization.k8s.io/aggregate-to-view: "true"
rules:
  - apiGroups: [metrics.k8s.io]
    resources: [pods, nodes]
    verbs: [get, list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: system:metrics-server
  labels:
    k8s-app: metrics-server
rules:
  - apiGroups: [""]
    resources: [nodes/metrics]
    verbs: [get]
  - apiGroups: [""]
    resources: [pods, nodes]
    verbs: [get, list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: metrics-server-auth-reader
  namespace: kube-system
  labels:
    k8s-app: metrics-server
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: extension-apiserver-authentication-reader
subjects:
  - kind: ServiceAccount
    name: metrics-server
    namespace: kube-system
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: metrics-server:system:auth-delegator
  labels:
    k8s-app: metrics-server
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: system:auth-delegator
subjects:
  - kind: ServiceAccount
    name: metrics-server
    namespace: kube-system
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: system:metrics-server
  labels:
    k8s-app: metrics-server
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: system:metrics-server
subjects:
  - kind: ServiceAccount
    name: metrics-server
    namespace: kube-system
---
apiVersion: v1
kind: Service
metadata:
  name: metrics-server
  namespace: kube-system
  labels:
    k8s-app: metrics-server
spec:
  ports:
    - name: https
      port: 443
      protocol: TCP
      targetPort: https
  selector:
    k8s-app: metrics-server
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: metrics-server
  namespace: kube-system
  labels:
    k8s-app: metrics-server
spec:
  selector:
    matchLabels:
      k8s-app: metrics-server
  strategy:
    rollingUpdate:
      maxUnavailable: 0
  template:
    metadata:
      labels:
        k8s-app: metrics-server
    spec:
      containers:
        - name: metrics-server
          image: `+((stack1=(lookupProperty(helpers,"json")||container.strict(depth0,"json",{start:{line:123,column:19},end:{line:123,column:23}})).call(depth0??(container.nullContext||{}),lookupProperty(depth0,"image"),{name:"json",hash:{},data,loc:{start:{line:123,column:17},end:{line:123,column:31}}}))!=null?stack1:"")+`
          imagePullPolicy: IfNotPresent
          args:
            - --cert-dir=/tmp
            - --secure-port=10250
            - --kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname
            - --kubelet-use-node-status-port
            - --metric-resolution=15s
            - --kubelet-insecure-tls
          ports:
            - name: https
              containerPort: 10250
              protocol: TCP
          livenessProbe:
            failureThreshold: 3
            httpGet:
              path: /livez
              port: https
              scheme: HTTPS
            periodSeconds: 10
          readinessProbe:
            failureThreshold: 3
            httpGet:
              path: /readyz
              port: https
              scheme: HTTPS
            initialDelaySeconds: 20
            periodSeconds: 10
          resources:
            requests:
              cpu: 100m
              memory: 200Mi
          securityContext:
            allowPrivilegeEscalation: false
            capabilities:
              drop: [ALL]
            readOnlyRootFilesystem: true
            runAsNonRoot: true
            runAsUser: 1000
            seccompProfile:
              type: RuntimeDefault
          volumeMounts:
            - mountPath: /tmp
              name: tmp-dir
      nodeSelector:
        kubernetes.io/os: linux
      priorityClassName: system-cluster-critical
      serviceAccountName: metrics-server
      volumes:
        - emptyDir: {}
          name: tmp-dir
---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata:
  name: v1beta1.metrics.k8s.io
  labels:
    k8s-app: metrics-server
spec:
  group: metrics.k8s.io
  groupPriorityMinimum: 100
  insecureSkipTLSVerify: true
  service:
    name: metrics-server
    namespace: kube-system
  version: v1beta1
  versionPriority: 100
`},useData:!0}},"addons/occm.yaml.hbs":{variables:["cacert","cloudConf","cloudConfigHash","cluster","image"],spec:{0:function(container,depth0,helpers,partials,data){var stack1,lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return"  ca.crt: "+((stack1=(lookupProperty(helpers,"json")||container.strict(depth0,"json",{start:{line:13,column:12},end:{line:13,column:16}})).call(depth0??(container.nullContext||{}),lookupProperty(depth0,"cacert"),{name:"json",hash:{},data,loc:{start:{line:13,column:10},end:{line:13,column:25}}}))!=null?stack1:"")+`
`},compiler:[8,">= 4.3.0"],main:function(container,depth0,helpers,partials,data){var stack1,alias1=container.strict,alias2=depth0??(container.nullContext||{}),lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return`apiVersion: v1
kind: Secret
metadata:
  name: cloud-config
  namespace: kube-system
type: Opaque
stringData:
  cloud.conf: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:11,column:16},end:{line:11,column:20}})).call(alias2,lookupProperty(depth0,"cloudConf"),{name:"json",hash:{},data,loc:{start:{line:11,column:14},end:{line:11,column:32}}}))!=null?stack1:"")+`
`+((stack1=lookupProperty(helpers,"if").call(alias2,lookupProperty(depth0,"cacert"),{name:"if",hash:{},fn:container.program(0,data,0),inverse:container.noop,data,loc:{start:{line:12,column:0},end:{line:14,column:7}}}))!=null?stack1:"")+`---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: cloud-controller-manager
  namespace: kube-system
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: system:cloud-controller-manager
rules:
  - apiGroups: [coordination.k8s.io]
    resources: [leases]
    verbs: [get, create, update]
  - apiGroups: [""]
    resources: [events]
    verbs: [create, patch, update]
  - apiGroups: [""]
    resources: [nodes]
    verbs: ["*"]
  - apiGroups: [""]
    resources: [nodes/status]
    verbs: [patch]
  - apiGroups: [""]
    resources: [services]
    verbs: [list, patch, update, watch]
  - apiGroups: [""]
    resources: [services/status]
    verbs: [patch]
  - apiGroups: [""]
    resources: [serviceaccounts/token]
    verbs: [create]
  - apiGroups: [""]
    resources: [serviceaccounts]
    verbs: [create, get]
  - apiGroups: [""]
    resources: [persistentvolumes]
    verbs: ["*"]
  - apiGroups: [""]
    resources: [endpoints]
    verbs: [create, get, list, watch, update]
  - apiGroups: [""]
    resources: [configmaps]
    verbs: [get, list, watch]
  - apiGroups: [""]
    resources: [secrets]
    verbs: [list, get, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: system:cloud-controller-manager
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: system:cloud-controller-manager
subjects:
  - kind: ServiceAccount
    name: cloud-controller-manager
    namespace: kube-system
---
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: openstack-cloud-controller-manager
  namespace: kube-system
  labels:
    k8s-app: openstack-cloud-controller-manager
spec:
  selector:
    matchLabels:
      k8s-app: openstack-cloud-controller-manager
  updateStrategy:
    type: RollingUpdate
  template:
    metadata:
      labels:
        k8s-app: openstack-cloud-controller-manager
      annotations:
        kaas.dev/cloud-config-hash: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:96,column:38},end:{line:96,column:42}})).call(alias2,lookupProperty(depth0,"cloudConfigHash"),{name:"json",hash:{},data,loc:{start:{line:96,column:36},end:{line:96,column:60}}}))!=null?stack1:"")+`
    spec:
      nodeSelector:
        node-role.kubernetes.io/control-plane: ""
      securityContext:
        runAsUser: 1001
      tolerations:
        - key: node.cloudprovider.kubernetes.io/uninitialized
          value: "true"
          effect: NoSchedule
        - key: node-role.kubernetes.io/master
          effect: NoSchedule
        - key: node-role.kubernetes.io/control-plane
          effect: NoSchedule
      serviceAccountName: cloud-controller-manager
      priorityClassName: system-node-critical
      hostNetwork: true
      containers:
        - name: openstack-cloud-controller-manager
          image: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:115,column:19},end:{line:115,column:23}})).call(alias2,lookupProperty(depth0,"image"),{name:"json",hash:{},data,loc:{start:{line:115,column:17},end:{line:115,column:31}}}))!=null?stack1:"")+`
          args:
            - /bin/openstack-cloud-controller-manager
            - --v=1
            - --cluster-name=$(CLUSTER_NAME)
            - --cloud-config=$(CLOUD_CONFIG)
            - --cloud-provider=openstack
            - --use-service-account-credentials=false
            - --bind-address=127.0.0.1
          volumeMounts:
            - mountPath: /etc/kubernetes/pki
              name: k8s-certs
              readOnly: true
            - mountPath: /etc/ssl/certs
              name: ca-certs
              readOnly: true
            - mountPath: /etc/config
              name: cloud-config-volume
              readOnly: true
          resources:
            requests:
              cpu: 200m
          env:
            - name: CLOUD_CONFIG
              value: /etc/config/cloud.conf
            - name: CLUSTER_NAME
              value: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:141,column:23},end:{line:141,column:27}})).call(alias2,lookupProperty(depth0,"cluster"),{name:"json",hash:{},data,loc:{start:{line:141,column:21},end:{line:141,column:37}}}))!=null?stack1:"")+`
      volumes:
        - hostPath:
            path: /etc/kubernetes/pki
            type: DirectoryOrCreate
          name: k8s-certs
        - hostPath:
            path: /etc/ssl/certs
            type: DirectoryOrCreate
          name: ca-certs
        - name: cloud-config-volume
          secret:
            secretName: cloud-config
`},useData:!0}},"cloud-conf/cloud.conf.hbs":{variables:["cloudName","global","hasGlobal","loadBalancer"],spec:{0:function(container,depth0,helpers,partials,data){var stack1,helper,alias1=depth0??(container.nullContext||{}),lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return'# [Global] from cloud "'+((stack1=(helper=lookupProperty(helpers,"cloudName")||container.strict(depth0,"cloudName",{start:{line:3,column:25},end:{line:3,column:34}}),typeof helper=="function"?helper.call(alias1,{name:"cloudName",hash:{},data,loc:{start:{line:3,column:23},end:{line:3,column:36}}}):helper))!=null?stack1:"")+`"
[Global]
`+((stack1=lookupProperty(helpers,"each").call(alias1,lookupProperty(depth0,"global"),{name:"each",hash:{},fn:container.program(1,data,0),inverse:container.noop,data,loc:{start:{line:5,column:0},end:{line:7,column:9}}}))!=null?stack1:"")},1:function(container,depth0,helpers,partials,data){var stack1,helper,alias1=container.strict,alias2=depth0??(container.nullContext||{}),alias3="function",lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return((stack1=(helper=lookupProperty(helpers,"key")||alias1(depth0,"key",{start:{line:6,column:2},end:{line:6,column:5}}),typeof helper===alias3?helper.call(alias2,{name:"key",hash:{},data,loc:{start:{line:6,column:0},end:{line:6,column:7}}}):helper))!=null?stack1:"")+"="+((stack1=(helper=lookupProperty(helpers,"value")||alias1(depth0,"value",{start:{line:6,column:10},end:{line:6,column:15}}),typeof helper===alias3?helper.call(alias2,{name:"value",hash:{},data,loc:{start:{line:6,column:8},end:{line:6,column:17}}}):helper))!=null?stack1:"")+`
`},2:function(container,depth0,helpers,partials,data){return`# [Global] omitted: no cloud credentials were available (dry-run). kaas create-cluster writes it.
`},compiler:[8,">= 4.3.0"],main:function(container,depth0,helpers,partials,data){var stack1,alias1=depth0??(container.nullContext||{}),lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return`# OCCM cloud config, written by kaas. Holds a credential: keep it mode 0600.
`+((stack1=lookupProperty(helpers,"if").call(alias1,lookupProperty(depth0,"hasGlobal"),{name:"if",hash:{},fn:container.program(0,data,0),inverse:container.program(2,data,0),data,loc:{start:{line:2,column:0},end:{line:10,column:7}}}))!=null?stack1:"")+`
[LoadBalancer]
`+((stack1=lookupProperty(helpers,"each").call(alias1,lookupProperty(depth0,"loadBalancer"),{name:"each",hash:{},fn:container.program(1,data,0),inverse:container.noop,data,loc:{start:{line:13,column:0},end:{line:15,column:9}}}))!=null?stack1:"")},useData:!0}},"cluster/10-cloud-secret.yaml.hbs":{variables:["cluster","identity","namespace"],spec:{0:function(container,depth0,helpers,partials,data){var stack1,lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return"  cacert: "+((stack1=(lookupProperty(helpers,"json")||container.strict(depth0,"json",{start:{line:15,column:12},end:{line:15,column:16}})).call(depth0??(container.nullContext||{}),lookupProperty(lookupProperty(depth0,"identity"),"cacert"),{name:"json",hash:{},data,loc:{start:{line:15,column:10},end:{line:15,column:34}}}))!=null?stack1:"")+`
`},compiler:[8,">= 4.3.0"],main:function(container,depth0,helpers,partials,data){var stack1,alias1=container.strict,alias2=depth0??(container.nullContext||{}),lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return`apiVersion: v1
kind: Secret
type: Opaque
metadata:
  name: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:6,column:10},end:{line:6,column:14}})).call(alias2,lookupProperty(lookupProperty(depth0,"identity"),"secretName"),{name:"json",hash:{},data,loc:{start:{line:6,column:8},end:{line:6,column:36}}}))!=null?stack1:"")+`
  namespace: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:7,column:15},end:{line:7,column:19}})).call(alias2,lookupProperty(depth0,"namespace"),{name:"json",hash:{},data,loc:{start:{line:7,column:13},end:{line:7,column:31}}}))!=null?stack1:"")+`
  labels:
    clusterctl.cluster.x-k8s.io/move: "true"
    cluster.x-k8s.io/cluster-name: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:10,column:37},end:{line:10,column:41}})).call(alias2,lookupProperty(depth0,"cluster"),{name:"json",hash:{},data,loc:{start:{line:10,column:35},end:{line:10,column:51}}}))!=null?stack1:"")+`
    app.kubernetes.io/managed-by: kaas
stringData:
  clouds.yaml: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:13,column:17},end:{line:13,column:21}})).call(alias2,lookupProperty(lookupProperty(depth0,"identity"),"cloudsYaml"),{name:"json",hash:{},data,loc:{start:{line:13,column:15},end:{line:13,column:43}}}))!=null?stack1:"")+`
`+((stack1=lookupProperty(helpers,"if").call(alias2,lookupProperty(lookupProperty(depth0,"identity"),"cacert"),{name:"if",hash:{},fn:container.program(0,data,0),inverse:container.noop,data,loc:{start:{line:14,column:0},end:{line:16,column:7}}}))!=null?stack1:"")},useData:!0}},"cluster/20-openstackcluster.yaml.hbs":{variables:["api","availabilityZone","cluster","identity","namespace","network","tags"],spec:{0:function(container,depth0,helpers,partials,data){var stack1,lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return"    provider: "+((stack1=container.lambda(container.strict(lookupProperty(depth0,"api"),"provider",{start:{line:18,column:16},end:{line:18,column:28}}),depth0))!=null?stack1:"")+`
`},1:function(container,depth0,helpers,partials,data){var stack1,lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return"    allowedCIDRs: "+((stack1=(lookupProperty(helpers,"json")||container.strict(depth0,"json",{start:{line:21,column:20},end:{line:21,column:24}})).call(depth0??(container.nullContext||{}),lookupProperty(lookupProperty(depth0,"api"),"allowedCIDRs"),{name:"json",hash:{},data,loc:{start:{line:21,column:18},end:{line:21,column:43}}}))!=null?stack1:"")+`
`},2:function(container,depth0,helpers,partials,data){var stack1,lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return"  externalNetwork: "+((stack1=(lookupProperty(helpers,"json")||container.strict(depth0,"json",{start:{line:24,column:21},end:{line:24,column:25}})).call(depth0??(container.nullContext||{}),lookupProperty(lookupProperty(depth0,"network"),"externalNetwork"),{name:"json",hash:{},data,loc:{start:{line:24,column:19},end:{line:24,column:51}}}))!=null?stack1:"")+`
`},3:function(container,depth0,helpers,partials,data){var stack1,lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return`    # OVN load balancers keep client addresses and health-check from the OVN DHCP/metadata port in the
    # node subnet: workers accept NodePorts from these sources (lib/plan/nodeports.ts).
    workerNodesSecurityGroupRules:
`+((stack1=lookupProperty(helpers,"each").call(depth0??(container.nullContext||{}),lookupProperty(lookupProperty(depth0,"network"),"nodePortSources"),{name:"each",hash:{},fn:container.program(4,data,0),inverse:container.noop,data,loc:{start:{line:36,column:0},end:{line:53,column:9}}}))!=null?stack1:"")},4:function(container,depth0,helpers,partials,data){var stack1,alias1=container.lambda,alias2=container.strict,alias3=depth0??(container.nullContext||{}),lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return'      - name: "NodePort TCP from '+((stack1=alias1(depth0,depth0))!=null?stack1:"")+`"
        description: Created by kaas - NodePorts for OVN load balancers
        direction: ingress
        etherType: IPv4
        protocol: tcp
        portRangeMin: 30000
        portRangeMax: 32767
        remoteIPPrefix: `+((stack1=(lookupProperty(helpers,"json")||alias2(depth0,"json",{start:{line:44,column:26},end:{line:44,column:30}})).call(alias3,depth0,{name:"json",hash:{},data,loc:{start:{line:44,column:24},end:{line:44,column:37}}}))!=null?stack1:"")+`
      - name: "NodePort UDP from `+((stack1=alias1(depth0,depth0))!=null?stack1:"")+`"
        description: Created by kaas - NodePorts for OVN load balancers
        direction: ingress
        etherType: IPv4
        protocol: udp
        portRangeMin: 30000
        portRangeMax: 32767
        remoteIPPrefix: `+((stack1=(lookupProperty(helpers,"json")||alias2(depth0,"json",{start:{line:52,column:26},end:{line:52,column:30}})).call(alias3,depth0,{name:"json",hash:{},data,loc:{start:{line:52,column:24},end:{line:52,column:37}}}))!=null?stack1:"")+`
`},5:function(container,depth0,helpers,partials,data){var stack1,lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return"  controlPlaneAvailabilityZones: ["+((stack1=(lookupProperty(helpers,"json")||container.strict(depth0,"json",{start:{line:56,column:36},end:{line:56,column:40}})).call(depth0??(container.nullContext||{}),lookupProperty(depth0,"availabilityZone"),{name:"json",hash:{},data,loc:{start:{line:56,column:34},end:{line:56,column:59}}}))!=null?stack1:"")+`]
`},compiler:[8,">= 4.3.0"],main:function(container,depth0,helpers,partials,data){var stack1,alias1=container.strict,alias2=depth0??(container.nullContext||{}),lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return`apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
kind: OpenStackCluster
metadata:
  name: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:4,column:10},end:{line:4,column:14}})).call(alias2,lookupProperty(depth0,"cluster"),{name:"json",hash:{},data,loc:{start:{line:4,column:8},end:{line:4,column:24}}}))!=null?stack1:"")+`
  namespace: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:5,column:15},end:{line:5,column:19}})).call(alias2,lookupProperty(depth0,"namespace"),{name:"json",hash:{},data,loc:{start:{line:5,column:13},end:{line:5,column:31}}}))!=null?stack1:"")+`
  labels:
    cluster.x-k8s.io/cluster-name: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:7,column:37},end:{line:7,column:41}})).call(alias2,lookupProperty(depth0,"cluster"),{name:"json",hash:{},data,loc:{start:{line:7,column:35},end:{line:7,column:51}}}))!=null?stack1:"")+`
    app.kubernetes.io/managed-by: kaas
spec:
  identityRef:
    name: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:13,column:12},end:{line:13,column:16}})).call(alias2,lookupProperty(lookupProperty(depth0,"identity"),"secretName"),{name:"json",hash:{},data,loc:{start:{line:13,column:10},end:{line:13,column:38}}}))!=null?stack1:"")+`
    cloudName: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:14,column:17},end:{line:14,column:21}})).call(alias2,lookupProperty(lookupProperty(depth0,"identity"),"cloudName"),{name:"json",hash:{},data,loc:{start:{line:14,column:15},end:{line:14,column:42}}}))!=null?stack1:"")+`
  apiServerLoadBalancer:
    enabled: true
`+((stack1=lookupProperty(helpers,"if").call(alias2,lookupProperty(lookupProperty(depth0,"api"),"provider"),{name:"if",hash:{},fn:container.program(0,data,0),inverse:container.noop,data,loc:{start:{line:17,column:0},end:{line:19,column:7}}}))!=null?stack1:"")+((stack1=lookupProperty(helpers,"if").call(alias2,lookupProperty(lookupProperty(depth0,"api"),"allowedCIDRs"),{name:"if",hash:{},fn:container.program(1,data,0),inverse:container.noop,data,loc:{start:{line:20,column:0},end:{line:22,column:7}}}))!=null?stack1:"")+((stack1=lookupProperty(helpers,"if").call(alias2,lookupProperty(lookupProperty(depth0,"network"),"externalNetwork"),{name:"if",hash:{},fn:container.program(2,data,0),inverse:container.noop,data,loc:{start:{line:23,column:0},end:{line:25,column:7}}}))!=null?stack1:"")+`  managedSubnets:
    - cidr: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:27,column:14},end:{line:27,column:18}})).call(alias2,lookupProperty(lookupProperty(depth0,"network"),"nodeCidr"),{name:"json",hash:{},data,loc:{start:{line:27,column:12},end:{line:27,column:37}}}))!=null?stack1:"")+`
      dnsNameservers: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:28,column:24},end:{line:28,column:28}})).call(alias2,lookupProperty(lookupProperty(depth0,"network"),"dnsNameservers"),{name:"json",hash:{},data,loc:{start:{line:28,column:22},end:{line:28,column:53}}}))!=null?stack1:"")+`
  managedSecurityGroups:
    # As SCS apply_kubeapi_cidrs.sh: nodes talk freely to each other (CNI, kubelet, etcd).
    allowAllInClusterTraffic: true
`+((stack1=lookupProperty(helpers,"if").call(alias2,lookupProperty(lookupProperty(depth0,"network"),"nodePortSources"),{name:"if",hash:{},fn:container.program(3,data,0),inverse:container.noop,data,loc:{start:{line:32,column:0},end:{line:54,column:7}}}))!=null?stack1:"")+((stack1=lookupProperty(helpers,"if").call(alias2,lookupProperty(depth0,"availabilityZone"),{name:"if",hash:{},fn:container.program(5,data,0),inverse:container.noop,data,loc:{start:{line:55,column:0},end:{line:57,column:7}}}))!=null?stack1:"")+"  tags: "+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:58,column:10},end:{line:58,column:14}})).call(alias2,lookupProperty(depth0,"tags"),{name:"json",hash:{},data,loc:{start:{line:58,column:8},end:{line:58,column:21}}}))!=null?stack1:"")+`
`},useData:!0}},"cluster/30-machinetemplate-control-plane.yaml.hbs":{variables:["cluster","controlPlane","image","namespace","sshKeyName"],spec:{0:function(container,depth0,helpers,partials,data){var stack1,lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return`      rootVolume:
        sizeGiB: `+((stack1=container.lambda(container.strict(lookupProperty(depth0,"controlPlane"),"rootVolumeGiB",{start:{line:21,column:19},end:{line:21,column:45}}),depth0))!=null?stack1:"")+`
`},1:function(container,depth0,helpers,partials,data){var stack1,lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return`      serverGroup:
        filter:
          name: `+((stack1=(lookupProperty(helpers,"json")||container.strict(depth0,"json",{start:{line:26,column:18},end:{line:26,column:22}})).call(depth0??(container.nullContext||{}),lookupProperty(lookupProperty(depth0,"controlPlane"),"serverGroup"),{name:"json",hash:{},data,loc:{start:{line:26,column:16},end:{line:26,column:49}}}))!=null?stack1:"")+`
`},2:function(container,depth0,helpers,partials,data){var stack1,lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return"      sshKeyName: "+((stack1=(lookupProperty(helpers,"json")||container.strict(depth0,"json",{start:{line:29,column:20},end:{line:29,column:24}})).call(depth0??(container.nullContext||{}),lookupProperty(depth0,"sshKeyName"),{name:"json",hash:{},data,loc:{start:{line:29,column:18},end:{line:29,column:37}}}))!=null?stack1:"")+`
`},compiler:[8,">= 4.3.0"],main:function(container,depth0,helpers,partials,data){var stack1,alias1=container.strict,alias2=depth0??(container.nullContext||{}),lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return`apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
kind: OpenStackMachineTemplate
metadata:
  name: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:5,column:10},end:{line:5,column:14}})).call(alias2,lookupProperty(lookupProperty(depth0,"controlPlane"),"templateBase"),{name:"json",hash:{},data,loc:{start:{line:5,column:8},end:{line:5,column:42}}}))!=null?stack1:"")+`
  namespace: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:6,column:15},end:{line:6,column:19}})).call(alias2,lookupProperty(depth0,"namespace"),{name:"json",hash:{},data,loc:{start:{line:6,column:13},end:{line:6,column:31}}}))!=null?stack1:"")+`
  labels:
    cluster.x-k8s.io/cluster-name: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:8,column:37},end:{line:8,column:41}})).call(alias2,lookupProperty(depth0,"cluster"),{name:"json",hash:{},data,loc:{start:{line:8,column:35},end:{line:8,column:51}}}))!=null?stack1:"")+`
    app.kubernetes.io/managed-by: kaas
  annotations:
    kaas.scs.community/generation: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:11,column:37},end:{line:11,column:41}})).call(alias2,lookupProperty(lookupProperty(depth0,"controlPlane"),"gen"),{name:"json",hash:{},data,loc:{start:{line:11,column:35},end:{line:11,column:60}}}))!=null?stack1:"")+`
spec:
  template:
    spec:
      flavor: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:15,column:16},end:{line:15,column:20}})).call(alias2,lookupProperty(lookupProperty(depth0,"controlPlane"),"flavor"),{name:"json",hash:{},data,loc:{start:{line:15,column:14},end:{line:15,column:42}}}))!=null?stack1:"")+`
      image:
        filter:
          name: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:18,column:18},end:{line:18,column:22}})).call(alias2,lookupProperty(depth0,"image"),{name:"json",hash:{},data,loc:{start:{line:18,column:16},end:{line:18,column:30}}}))!=null?stack1:"")+`
`+((stack1=lookupProperty(helpers,"if").call(alias2,lookupProperty(lookupProperty(depth0,"controlPlane"),"rootVolumeGiB"),{name:"if",hash:{},fn:container.program(0,data,0),inverse:container.noop,data,loc:{start:{line:19,column:0},end:{line:22,column:7}}}))!=null?stack1:"")+((stack1=lookupProperty(helpers,"if").call(alias2,lookupProperty(lookupProperty(depth0,"controlPlane"),"serverGroup"),{name:"if",hash:{},fn:container.program(1,data,0),inverse:container.noop,data,loc:{start:{line:23,column:0},end:{line:27,column:7}}}))!=null?stack1:"")+((stack1=lookupProperty(helpers,"if").call(alias2,lookupProperty(depth0,"sshKeyName"),{name:"if",hash:{},fn:container.program(2,data,0),inverse:container.noop,data,loc:{start:{line:28,column:0},end:{line:30,column:7}}}))!=null?stack1:"")+"      serverMetadata: "+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:31,column:24},end:{line:31,column:28}})).call(alias2,lookupProperty(lookupProperty(depth0,"controlPlane"),"metadata"),{name:"json",hash:{},data,loc:{start:{line:31,column:22},end:{line:31,column:52}}}))!=null?stack1:"")+`
`},useData:!0}},"cluster/31-machinetemplate-workers.yaml.hbs":{variables:["cluster","image","namespace","sshKeyName","workers"],spec:{0:function(container,depth0,helpers,partials,data){var stack1,lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return`      rootVolume:
        sizeGiB: `+((stack1=container.lambda(container.strict(lookupProperty(depth0,"workers"),"rootVolumeGiB",{start:{line:21,column:19},end:{line:21,column:40}}),depth0))!=null?stack1:"")+`
`},1:function(container,depth0,helpers,partials,data){var stack1,lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return`      serverGroup:
        filter:
          name: `+((stack1=(lookupProperty(helpers,"json")||container.strict(depth0,"json",{start:{line:26,column:18},end:{line:26,column:22}})).call(depth0??(container.nullContext||{}),lookupProperty(lookupProperty(depth0,"workers"),"serverGroup"),{name:"json",hash:{},data,loc:{start:{line:26,column:16},end:{line:26,column:44}}}))!=null?stack1:"")+`
`},2:function(container,depth0,helpers,partials,data){var stack1,lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return"      sshKeyName: "+((stack1=(lookupProperty(helpers,"json")||container.strict(depth0,"json",{start:{line:29,column:20},end:{line:29,column:24}})).call(depth0??(container.nullContext||{}),lookupProperty(depth0,"sshKeyName"),{name:"json",hash:{},data,loc:{start:{line:29,column:18},end:{line:29,column:37}}}))!=null?stack1:"")+`
`},compiler:[8,">= 4.3.0"],main:function(container,depth0,helpers,partials,data){var stack1,alias1=container.strict,alias2=depth0??(container.nullContext||{}),lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return`apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
kind: OpenStackMachineTemplate
metadata:
  name: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:5,column:10},end:{line:5,column:14}})).call(alias2,lookupProperty(lookupProperty(depth0,"workers"),"templateBase"),{name:"json",hash:{},data,loc:{start:{line:5,column:8},end:{line:5,column:37}}}))!=null?stack1:"")+`
  namespace: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:6,column:15},end:{line:6,column:19}})).call(alias2,lookupProperty(depth0,"namespace"),{name:"json",hash:{},data,loc:{start:{line:6,column:13},end:{line:6,column:31}}}))!=null?stack1:"")+`
  labels:
    cluster.x-k8s.io/cluster-name: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:8,column:37},end:{line:8,column:41}})).call(alias2,lookupProperty(depth0,"cluster"),{name:"json",hash:{},data,loc:{start:{line:8,column:35},end:{line:8,column:51}}}))!=null?stack1:"")+`
    app.kubernetes.io/managed-by: kaas
  annotations:
    kaas.scs.community/generation: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:11,column:37},end:{line:11,column:41}})).call(alias2,lookupProperty(lookupProperty(depth0,"workers"),"gen"),{name:"json",hash:{},data,loc:{start:{line:11,column:35},end:{line:11,column:55}}}))!=null?stack1:"")+`
spec:
  template:
    spec:
      flavor: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:15,column:16},end:{line:15,column:20}})).call(alias2,lookupProperty(lookupProperty(depth0,"workers"),"flavor"),{name:"json",hash:{},data,loc:{start:{line:15,column:14},end:{line:15,column:37}}}))!=null?stack1:"")+`
      image:
        filter:
          name: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:18,column:18},end:{line:18,column:22}})).call(alias2,lookupProperty(depth0,"image"),{name:"json",hash:{},data,loc:{start:{line:18,column:16},end:{line:18,column:30}}}))!=null?stack1:"")+`
`+((stack1=lookupProperty(helpers,"if").call(alias2,lookupProperty(lookupProperty(depth0,"workers"),"rootVolumeGiB"),{name:"if",hash:{},fn:container.program(0,data,0),inverse:container.noop,data,loc:{start:{line:19,column:0},end:{line:22,column:7}}}))!=null?stack1:"")+((stack1=lookupProperty(helpers,"if").call(alias2,lookupProperty(lookupProperty(depth0,"workers"),"serverGroup"),{name:"if",hash:{},fn:container.program(1,data,0),inverse:container.noop,data,loc:{start:{line:23,column:0},end:{line:27,column:7}}}))!=null?stack1:"")+((stack1=lookupProperty(helpers,"if").call(alias2,lookupProperty(depth0,"sshKeyName"),{name:"if",hash:{},fn:container.program(2,data,0),inverse:container.noop,data,loc:{start:{line:28,column:0},end:{line:30,column:7}}}))!=null?stack1:"")+"      serverMetadata: "+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:31,column:24},end:{line:31,column:28}})).call(alias2,lookupProperty(lookupProperty(depth0,"workers"),"metadata"),{name:"json",hash:{},data,loc:{start:{line:31,column:22},end:{line:31,column:47}}}))!=null?stack1:"")+`
`},useData:!0}},"cluster/40-kubeadmconfigtemplate.yaml.hbs":{variables:["cluster","namespace","workers"],spec:{compiler:[8,">= 4.3.0"],main:function(container,depth0,helpers,partials,data){var stack1,alias1=container.strict,alias2=depth0??(container.nullContext||{}),lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return`apiVersion: bootstrap.cluster.x-k8s.io/v1beta1
kind: KubeadmConfigTemplate
metadata:
  name: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:5,column:10},end:{line:5,column:14}})).call(alias2,lookupProperty(lookupProperty(depth0,"workers"),"configBase"),{name:"json",hash:{},data,loc:{start:{line:5,column:8},end:{line:5,column:35}}}))!=null?stack1:"")+`
  namespace: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:6,column:15},end:{line:6,column:19}})).call(alias2,lookupProperty(depth0,"namespace"),{name:"json",hash:{},data,loc:{start:{line:6,column:13},end:{line:6,column:31}}}))!=null?stack1:"")+`
  labels:
    cluster.x-k8s.io/cluster-name: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:8,column:37},end:{line:8,column:41}})).call(alias2,lookupProperty(depth0,"cluster"),{name:"json",hash:{},data,loc:{start:{line:8,column:35},end:{line:8,column:51}}}))!=null?stack1:"")+`
    app.kubernetes.io/managed-by: kaas
spec:
  template:
    spec:
      joinConfiguration:
        nodeRegistration:
          name: '{{ local_hostname }}'
          kubeletExtraArgs:
            cloud-provider: external
            provider-id: openstack:///'{{ instance_id }}'
`},useData:!0}},"cluster/50-kubeadmcontrolplane.yaml.hbs":{variables:["cluster","controlPlane","etcdUnsafeFs","kubernetesVersion","namespace"],spec:{0:function(container,depth0,helpers,partials,data){return`    postKubeadmCommands:
      # etcd_unsafe_fs: no write barriers on / (faster etcd on slow disks; loses data on power loss).
      - mount -o remount,barrier=0,commit=20 /
      - sed -i 's@errors=remount-ro@errors=remount-ro,barrier=0,commit=20@' /etc/fstab
`},compiler:[8,">= 4.3.0"],main:function(container,depth0,helpers,partials,data){var stack1,alias1=container.strict,alias2=depth0??(container.nullContext||{}),lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return`apiVersion: controlplane.cluster.x-k8s.io/v1beta1
kind: KubeadmControlPlane
metadata:
  name: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:4,column:10},end:{line:4,column:14}})).call(alias2,lookupProperty(lookupProperty(depth0,"controlPlane"),"name"),{name:"json",hash:{},data,loc:{start:{line:4,column:8},end:{line:4,column:34}}}))!=null?stack1:"")+`
  namespace: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:5,column:15},end:{line:5,column:19}})).call(alias2,lookupProperty(depth0,"namespace"),{name:"json",hash:{},data,loc:{start:{line:5,column:13},end:{line:5,column:31}}}))!=null?stack1:"")+`
  labels:
    cluster.x-k8s.io/cluster-name: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:7,column:37},end:{line:7,column:41}})).call(alias2,lookupProperty(depth0,"cluster"),{name:"json",hash:{},data,loc:{start:{line:7,column:35},end:{line:7,column:51}}}))!=null?stack1:"")+`
    app.kubernetes.io/managed-by: kaas
spec:
  replicas: `+((stack1=container.lambda(alias1(lookupProperty(depth0,"controlPlane"),"count",{start:{line:10,column:14},end:{line:10,column:32}}),depth0))!=null?stack1:"")+`
  version: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:11,column:13},end:{line:11,column:17}})).call(alias2,lookupProperty(depth0,"kubernetesVersion"),{name:"json",hash:{},data,loc:{start:{line:11,column:11},end:{line:11,column:37}}}))!=null?stack1:"")+`
  machineTemplate:
    infrastructureRef:
      apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
      kind: OpenStackMachineTemplate
      name: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:16,column:14},end:{line:16,column:18}})).call(alias2,lookupProperty(lookupProperty(depth0,"controlPlane"),"templateBase"),{name:"json",hash:{},data,loc:{start:{line:16,column:12},end:{line:16,column:46}}}))!=null?stack1:"")+`
  kubeadmConfigSpec:
    initConfiguration:
      nodeRegistration:
        name: '{{ local_hostname }}'
        kubeletExtraArgs:
          cloud-provider: external
          provider-id: openstack:///'{{ instance_id }}'
    joinConfiguration:
      nodeRegistration:
        name: '{{ local_hostname }}'
        kubeletExtraArgs:
          cloud-provider: external
          provider-id: openstack:///'{{ instance_id }}'
    clusterConfiguration:
      controllerManager:
        extraArgs:
          cloud-provider: external
      etcd:
        local:
          dataDir: /var/lib/etcd
          # SCS etcd tuning (k8s-cluster-api-provider cluster-template.yaml): slow cloud disks.
          extraArgs:
            heartbeat-interval: "250"
            election-timeout: "2500"
            snapshot-count: "6400"
            auto-compaction-mode: periodic
            auto-compaction-retention: 8h
`+((stack1=lookupProperty(helpers,"if").call(alias2,lookupProperty(depth0,"etcdUnsafeFs"),{name:"if",hash:{},fn:container.program(0,data,0),inverse:container.noop,data,loc:{start:{line:44,column:0},end:{line:49,column:7}}}))!=null?stack1:"")},useData:!0}},"cluster/60-machinedeployment.yaml.hbs":{variables:["availabilityZone","cluster","kubernetesVersion","namespace","workers"],spec:{0:function(container,depth0,helpers,partials,data){var stack1,lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return"      failureDomain: "+((stack1=(lookupProperty(helpers,"json")||container.strict(depth0,"json",{start:{line:19,column:23},end:{line:19,column:27}})).call(depth0??(container.nullContext||{}),lookupProperty(depth0,"availabilityZone"),{name:"json",hash:{},data,loc:{start:{line:19,column:21},end:{line:19,column:46}}}))!=null?stack1:"")+`
`},compiler:[8,">= 4.3.0"],main:function(container,depth0,helpers,partials,data){var stack1,alias1=container.strict,alias2=depth0??(container.nullContext||{}),lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return`apiVersion: cluster.x-k8s.io/v1beta1
kind: MachineDeployment
metadata:
  name: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:4,column:10},end:{line:4,column:14}})).call(alias2,lookupProperty(lookupProperty(depth0,"workers"),"name"),{name:"json",hash:{},data,loc:{start:{line:4,column:8},end:{line:4,column:29}}}))!=null?stack1:"")+`
  namespace: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:5,column:15},end:{line:5,column:19}})).call(alias2,lookupProperty(depth0,"namespace"),{name:"json",hash:{},data,loc:{start:{line:5,column:13},end:{line:5,column:31}}}))!=null?stack1:"")+`
  labels:
    cluster.x-k8s.io/cluster-name: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:7,column:37},end:{line:7,column:41}})).call(alias2,lookupProperty(depth0,"cluster"),{name:"json",hash:{},data,loc:{start:{line:7,column:35},end:{line:7,column:51}}}))!=null?stack1:"")+`
    app.kubernetes.io/managed-by: kaas
spec:
  clusterName: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:10,column:17},end:{line:10,column:21}})).call(alias2,lookupProperty(depth0,"cluster"),{name:"json",hash:{},data,loc:{start:{line:10,column:15},end:{line:10,column:31}}}))!=null?stack1:"")+`
  replicas: `+((stack1=container.lambda(alias1(lookupProperty(depth0,"workers"),"count",{start:{line:11,column:14},end:{line:11,column:27}}),depth0))!=null?stack1:"")+`
  selector:
    matchLabels: {}
  template:
    spec:
      clusterName: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:16,column:21},end:{line:16,column:25}})).call(alias2,lookupProperty(depth0,"cluster"),{name:"json",hash:{},data,loc:{start:{line:16,column:19},end:{line:16,column:35}}}))!=null?stack1:"")+`
      version: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:17,column:17},end:{line:17,column:21}})).call(alias2,lookupProperty(depth0,"kubernetesVersion"),{name:"json",hash:{},data,loc:{start:{line:17,column:15},end:{line:17,column:41}}}))!=null?stack1:"")+`
`+((stack1=lookupProperty(helpers,"if").call(alias2,lookupProperty(depth0,"availabilityZone"),{name:"if",hash:{},fn:container.program(0,data,0),inverse:container.noop,data,loc:{start:{line:18,column:0},end:{line:20,column:7}}}))!=null?stack1:"")+`      bootstrap:
        configRef:
          apiVersion: bootstrap.cluster.x-k8s.io/v1beta1
          kind: KubeadmConfigTemplate
          name: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:25,column:18},end:{line:25,column:22}})).call(alias2,lookupProperty(lookupProperty(depth0,"workers"),"configBase"),{name:"json",hash:{},data,loc:{start:{line:25,column:16},end:{line:25,column:43}}}))!=null?stack1:"")+`
      infrastructureRef:
        apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
        kind: OpenStackMachineTemplate
        name: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:29,column:16},end:{line:29,column:20}})).call(alias2,lookupProperty(lookupProperty(depth0,"workers"),"templateBase"),{name:"json",hash:{},data,loc:{start:{line:29,column:14},end:{line:29,column:43}}}))!=null?stack1:"")+`
`},useData:!0}},"cluster/70-cluster.yaml.hbs":{variables:["cluster","controlPlane","namespace","network"],spec:{compiler:[8,">= 4.3.0"],main:function(container,depth0,helpers,partials,data){var stack1,alias1=container.strict,alias2=depth0??(container.nullContext||{}),lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return`apiVersion: cluster.x-k8s.io/v1beta1
kind: Cluster
metadata:
  name: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:4,column:10},end:{line:4,column:14}})).call(alias2,lookupProperty(depth0,"cluster"),{name:"json",hash:{},data,loc:{start:{line:4,column:8},end:{line:4,column:24}}}))!=null?stack1:"")+`
  namespace: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:5,column:15},end:{line:5,column:19}})).call(alias2,lookupProperty(depth0,"namespace"),{name:"json",hash:{},data,loc:{start:{line:5,column:13},end:{line:5,column:31}}}))!=null?stack1:"")+`
  labels:
    cluster.x-k8s.io/cluster-name: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:7,column:37},end:{line:7,column:41}})).call(alias2,lookupProperty(depth0,"cluster"),{name:"json",hash:{},data,loc:{start:{line:7,column:35},end:{line:7,column:51}}}))!=null?stack1:"")+`
    app.kubernetes.io/managed-by: kaas
spec:
  clusterNetwork:
    pods:
      cidrBlocks: [`+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:12,column:21},end:{line:12,column:25}})).call(alias2,lookupProperty(lookupProperty(depth0,"network"),"podCidr"),{name:"json",hash:{},data,loc:{start:{line:12,column:19},end:{line:12,column:43}}}))!=null?stack1:"")+`]
    services:
      cidrBlocks: [`+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:14,column:21},end:{line:14,column:25}})).call(alias2,lookupProperty(lookupProperty(depth0,"network"),"serviceCidr"),{name:"json",hash:{},data,loc:{start:{line:14,column:19},end:{line:14,column:47}}}))!=null?stack1:"")+`]
    serviceDomain: cluster.local
  controlPlaneRef:
    apiVersion: controlplane.cluster.x-k8s.io/v1beta1
    kind: KubeadmControlPlane
    name: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:19,column:12},end:{line:19,column:16}})).call(alias2,lookupProperty(lookupProperty(depth0,"controlPlane"),"name"),{name:"json",hash:{},data,loc:{start:{line:19,column:10},end:{line:19,column:36}}}))!=null?stack1:"")+`
  infrastructureRef:
    apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
    kind: OpenStackCluster
    name: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:23,column:12},end:{line:23,column:16}})).call(alias2,lookupProperty(depth0,"cluster"),{name:"json",hash:{},data,loc:{start:{line:23,column:10},end:{line:23,column:26}}}))!=null?stack1:"")+`
`},useData:!0}},"gateway/kaas/edge.yaml.hbs":{variables:["annotations","envoyImage","envoyProxy","externalTrafficPolicy","gateway","gatewayClass","namespace","proxyProtocol"],spec:{0:function(container,depth0,helpers,partials,data){var stack1,alias1=container.strict,alias2=depth0??(container.nullContext||{}),lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return`---
# The amphora prepends a PROXY header (pool protocol PROXY): Envoy must read it on every listener.
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: ClientTrafficPolicy
metadata:
  name: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:53,column:10},end:{line:53,column:14}})).call(alias2,lookupProperty(depth0,"gateway"),{name:"json",hash:{},data,loc:{start:{line:53,column:8},end:{line:53,column:24}}}))!=null?stack1:"")+`
  namespace: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:54,column:15},end:{line:54,column:19}})).call(alias2,lookupProperty(depth0,"namespace"),{name:"json",hash:{},data,loc:{start:{line:54,column:13},end:{line:54,column:31}}}))!=null?stack1:"")+`
spec:
  targetRefs:
    - group: gateway.networking.k8s.io
      kind: Gateway
      name: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:59,column:14},end:{line:59,column:18}})).call(alias2,lookupProperty(depth0,"gateway"),{name:"json",hash:{},data,loc:{start:{line:59,column:12},end:{line:59,column:28}}}))!=null?stack1:"")+`
  proxyProtocol: {}
`},compiler:[8,">= 4.3.0"],main:function(container,depth0,helpers,partials,data){var stack1,alias1=container.strict,alias2=depth0??(container.nullContext||{}),lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return`# The kaas edge on top of Envoy Gateway: the EnvoyProxy carries the OpenStack load-balancer plan
# (lib/plan/edge.ts) for every Gateway of the class; the default Gateway serves plain HTTP until
# routes with TLS add their listeners (kaas migrate-ingress).
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: EnvoyProxy
metadata:
  name: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:7,column:10},end:{line:7,column:14}})).call(alias2,lookupProperty(depth0,"envoyProxy"),{name:"json",hash:{},data,loc:{start:{line:7,column:8},end:{line:7,column:27}}}))!=null?stack1:"")+`
  namespace: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:8,column:15},end:{line:8,column:19}})).call(alias2,lookupProperty(depth0,"namespace"),{name:"json",hash:{},data,loc:{start:{line:8,column:13},end:{line:8,column:31}}}))!=null?stack1:"")+`
spec:
  provider:
    type: Kubernetes
    kubernetes:
      envoyDeployment:
        container:
          image: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:15,column:19},end:{line:15,column:23}})).call(alias2,lookupProperty(depth0,"envoyImage"),{name:"json",hash:{},data,loc:{start:{line:15,column:17},end:{line:15,column:36}}}))!=null?stack1:"")+`
      envoyService:
        type: LoadBalancer
        externalTrafficPolicy: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:18,column:33},end:{line:18,column:37}})).call(alias2,lookupProperty(depth0,"externalTrafficPolicy"),{name:"json",hash:{},data,loc:{start:{line:18,column:31},end:{line:18,column:61}}}))!=null?stack1:"")+`
        annotations: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:19,column:23},end:{line:19,column:27}})).call(alias2,lookupProperty(depth0,"annotations"),{name:"json",hash:{},data,loc:{start:{line:19,column:21},end:{line:19,column:41}}}))!=null?stack1:"")+`
---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:24,column:10},end:{line:24,column:14}})).call(alias2,lookupProperty(depth0,"gatewayClass"),{name:"json",hash:{},data,loc:{start:{line:24,column:8},end:{line:24,column:29}}}))!=null?stack1:"")+`
spec:
  controllerName: gateway.envoyproxy.io/gatewayclass-controller
  parametersRef:
    group: gateway.envoyproxy.io
    kind: EnvoyProxy
    name: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:30,column:12},end:{line:30,column:16}})).call(alias2,lookupProperty(depth0,"envoyProxy"),{name:"json",hash:{},data,loc:{start:{line:30,column:10},end:{line:30,column:29}}}))!=null?stack1:"")+`
    namespace: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:31,column:17},end:{line:31,column:21}})).call(alias2,lookupProperty(depth0,"namespace"),{name:"json",hash:{},data,loc:{start:{line:31,column:15},end:{line:31,column:33}}}))!=null?stack1:"")+`
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:36,column:10},end:{line:36,column:14}})).call(alias2,lookupProperty(depth0,"gateway"),{name:"json",hash:{},data,loc:{start:{line:36,column:8},end:{line:36,column:24}}}))!=null?stack1:"")+`
  namespace: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:37,column:15},end:{line:37,column:19}})).call(alias2,lookupProperty(depth0,"namespace"),{name:"json",hash:{},data,loc:{start:{line:37,column:13},end:{line:37,column:31}}}))!=null?stack1:"")+`
spec:
  gatewayClassName: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:39,column:22},end:{line:39,column:26}})).call(alias2,lookupProperty(depth0,"gatewayClass"),{name:"json",hash:{},data,loc:{start:{line:39,column:20},end:{line:39,column:41}}}))!=null?stack1:"")+`
  listeners:
    - name: http
      protocol: HTTP
      port: 80
      allowedRoutes:
        namespaces:
          from: All
`+((stack1=lookupProperty(helpers,"if").call(alias2,lookupProperty(depth0,"proxyProtocol"),{name:"if",hash:{},fn:container.program(0,data,0),inverse:container.noop,data,loc:{start:{line:47,column:0},end:{line:61,column:7}}}))!=null?stack1:"")},useData:!0}},"ingress/patches/etp-cluster.yaml.hbs":{variables:[],spec:{compiler:[8,">= 4.3.0"],main:function(container,depth0,helpers,partials,data){return`# No health monitor (occm_loadbalancer create-monitor: false): with externalTrafficPolicy: Local the
# amphora would keep sending to nodes without a controller pod, so kube-proxy spreads the traffic.
apiVersion: v1
kind: Service
metadata:
  name: ingress-nginx-controller
  namespace: ingress-nginx
spec:
  externalTrafficPolicy: Cluster
`},useData:!0}},"ingress/patches/health-monitor.yaml.hbs":{variables:[],spec:{compiler:[8,">= 4.3.0"],main:function(container,depth0,helpers,partials,data){return`# Octavia checks each node's healthCheckNodePort: with externalTrafficPolicy: Local only nodes
# running a controller pod receive traffic (the SCS nginx-monitor overlay).
apiVersion: v1
kind: Service
metadata:
  name: ingress-nginx-controller
  namespace: ingress-nginx
  annotations:
    loadbalancer.openstack.org/enable-health-monitor: "true"
`},useData:!0}},"ingress/patches/proxy-protocol.yaml.hbs":{variables:["realIpCidr"],spec:{compiler:[8,">= 4.3.0"],main:function(container,depth0,helpers,partials,data){var stack1,helper,alias1=container.strict,alias2=depth0??(container.nullContext||{}),lookupProperty=container.lookupProperty||function(parent,propertyName){if(Object.prototype.hasOwnProperty.call(parent,propertyName))return parent[propertyName]};return`# amphora + PROXY protocol (the SCS nginx-proxy overlay): the LB prepends the client address,
# nginx trusts it only from `+((stack1=(helper=lookupProperty(helpers,"realIpCidr")||alias1(depth0,"realIpCidr",{start:{line:2,column:30},end:{line:2,column:40}}),typeof helper=="function"?helper.call(alias2,{name:"realIpCidr",hash:{},data,loc:{start:{line:2,column:28},end:{line:2,column:42}}}):helper))!=null?stack1:"")+`.
apiVersion: v1
kind: Service
metadata:
  name: ingress-nginx-controller
  namespace: ingress-nginx
  annotations:
    loadbalancer.openstack.org/proxy-protocol: "true"
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: ingress-nginx-controller
  namespace: ingress-nginx
data:
  use-proxy-protocol: "true"
  proxy-real-ip-cidr: `+((stack1=(lookupProperty(helpers,"json")||alias1(depth0,"json",{start:{line:18,column:24},end:{line:18,column:28}})).call(alias2,lookupProperty(depth0,"realIpCidr"),{name:"json",hash:{},data,loc:{start:{line:18,column:22},end:{line:18,column:41}}}))!=null?stack1:"")+`
`},useData:!0}}},DATA=[".keep","addons","cloud-conf","cluster","crds","crds/bootstrap.cluster.x-k8s.io_KubeadmConfigTemplate.v1beta1.json","crds/cluster.x-k8s.io_Cluster.v1beta1.json","crds/cluster.x-k8s.io_MachineDeployment.v1beta1.json","crds/controlplane.cluster.x-k8s.io_KubeadmControlPlane.v1beta1.json","crds/infrastructure.cluster.x-k8s.io_OpenStackCluster.v1beta1.json","crds/infrastructure.cluster.x-k8s.io_OpenStackMachineTemplate.v1beta1.json","gateway","gateway/README.md","gateway/envoy-gateway-v1.9.0","gateway/envoy-gateway-v1.9.0/LICENSE","gateway/envoy-gateway-v1.9.0/crds","gateway/envoy-gateway-v1.9.0/crds/gateway.envoyproxy.io_backends.yaml","gateway/envoy-gateway-v1.9.0/crds/gateway.envoyproxy.io_backendtrafficpolicies.yaml","gateway/envoy-gateway-v1.9.0/crds/gateway.envoyproxy.io_clienttrafficpolicies.yaml","gateway/envoy-gateway-v1.9.0/crds/gateway.envoyproxy.io_envoyextensionpolicies.yaml","gateway/envoy-gateway-v1.9.0/crds/gateway.envoyproxy.io_envoypatchpolicies.yaml","gateway/envoy-gateway-v1.9.0/crds/gateway.envoyproxy.io_envoyproxies.yaml","gateway/envoy-gateway-v1.9.0/crds/gateway.envoyproxy.io_httproutefilters.yaml","gateway/envoy-gateway-v1.9.0/crds/gateway.envoyproxy.io_securitypolicies.yaml","gateway/envoy-gateway-v1.9.0/helm-default-render.yaml","gateway/gateway-api-v1.6.1","gateway/gateway-api-v1.6.1/LICENSE","gateway/gateway-api-v1.6.1/standard-install.yaml","gateway/kaas","ingress","ingress/README.md","ingress/patches","ingress/upstream","ingress/upstream/deploy-cloud-v1.14.5.yaml","ingress/upstream/deploy-cloud-v1.15.1.yaml","ingress/upstream/deploy-cloud-v1.9.6.yaml"];var import_runtime=__toESM(require_runtime2());var hb=import_runtime.default.create();for(let[name,fn]of Object.entries(HELPERS))hb.registerHelper(name,fn);var DATA_DIR=new URL("../data/",import.meta.url);function missing(rel){throw new OperationError(`bundled file templates/${rel} is not in this build of kaas`,{hint:"reinstall kaas: its bundle is incomplete"})}function readData(rel,file=rel){DATA.includes(rel)||missing(rel);try{return readFileSync(new URL(file,DATA_DIR),"utf8")}catch(e){throw new OperationError(`bundled file templates/${rel} is missing: ${e.message}`,{hint:"reinstall kaas: its bundle is incomplete"})}}function bundledTemplate(rel){let t=Object.hasOwn(TEMPLATES,rel)?TEMPLATES[rel]:missing(rel);return makeTemplate(rel,[...t.variables],hb.template(t.spec))}function bundledFiles(dir){let prefix=`${dir.replace(/\/$/,"")}/`;return[...Object.keys(TEMPLATES),...DATA].filter(k=>k.startsWith(prefix)&&!k.slice(prefix.length).includes("/")).map(k=>k.slice(prefix.length)).sort()}function readBundledText(...parts){return readData(parts.join("/"))}function readBundledObjects(...parts){let rel=parts.join("/"),json=readData(rel,`${rel}.objects.json`),objects=JSON.parse(json),texts=JSON.parse(readData(rel,`${rel}.documents.json`)),copies=JSON.parse(json);return objects.forEach((o,i)=>rememberDocument(o,copies[i],texts[i])),objects}export{objectKey,parseDocuments,stringifyDocuments,findObject,applyPatches,bundledTemplate,bundledFiles,readBundledText,readBundledObjects};
