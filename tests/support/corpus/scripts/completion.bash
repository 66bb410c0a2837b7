# bash completion for the `tasker` command line
# shellcheck shell=bash

_tasker_projects() {
    local cache=${XDG_CACHE_HOME:-$HOME/.cache}/tasker/projects
    if [[ -r $cache && $(find "$cache" -mmin -5 2>/dev/null) ]]; then
        cat -- "$cache"
    else
        tasker projects --plain 2>/dev/null | tee "$cache" 2>/dev/null
    fi
}

_tasker() {
    local cur prev words cword split
    _init_completion -s || return

    local commands='add done list edit rm projects help'
    local i cmd=
    for ((i = 1; i < cword; i++)); do
        if [[ ${words[i]} != -* ]]; then
            cmd=${words[i]}
            break
        fi
    done

    case $prev in
        --project|-p)
            COMPREPLY=($(compgen -W "$(_tasker_projects)" -- "$cur"))
            return
            ;;
        --due)
            COMPREPLY=($(compgen -W 'today tomorrow monday friday' -- "$cur"))
            return
            ;;
        --file|-f)
            _filedir '@(json|ya?ml)'
            return
            ;;
    esac

    $split && return

    if [[ -z $cmd ]]; then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W '--help --version --project' -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        fi
        return
    fi

    case $cmd in
        add)
            COMPREPLY=($(compgen -W '--project --due --tag --priority' -- "$cur"))
            ;;
        done|rm|edit)
            local ids
            ids=$(tasker list --ids 2>/dev/null)
            COMPREPLY=($(compgen -W "$ids" -- "$cur"))
            ;;
        list)
            COMPREPLY=($(compgen -W '--all --project --tag --sort=due --sort=priority' -- "$cur"))
            [[ ${COMPREPLY-} == *= ]] && compopt -o nospace
            ;;
        *)
            COMPREPLY=()
            ;;
    esac
} &&
    complete -F _tasker tasker
